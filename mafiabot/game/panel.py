"""The game panel as the table sees it: one Components V2 container in the phase's colour, holding the
step and its countdown, a grid of the seats (number, name, out, fouls, who speaks, who is nominated) and
the step's controls.

Everything on it is public knowledge at that moment: the seats still at the table, the nominations and
fouls the host announced, the step the host called. Nothing a rule keeps hidden (a role, a night
target, who has acted) is drawn, and at night no countdown is shown (a dead role's step is shorter,
D-G8). The table decides when the panel is sent, edited or moved to the bottom (table.py).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import discord

from engine.flow import SPEECH_PHRASES
from engine.state import GameState
from mafiabot.game.components import PANEL_EXTRAS, STATUS_EXTRAS, panel_controls
from mafiabot.game.session import GameSession
from mafiabot.i18n import has, text
from mafiabot.views import MafiaLayoutView

# Steps whose panel line has its own message («step-<kind>» in mafiabot/locales); preset_controls adds its
# steps. The line of any other step is the phase's name alone.
PANEL_STEPS = {"speech", "discussion", "nominations", "vote", "tiebreak", "question", "night", "meet"}

# The container's accent colour per phase: players tell day from night at a glance.
ACCENTS = {
    "day": 0xF1C40F,
    "night": 0x2C3E50,
    "dawn": 0xE67E22,
    "sunset": 0xC0392B,
    "over": 0x95A5A6,
}
_OTHER_PHASE = 0x7289DA


def phase_name(s: GameState, language: str) -> str:
    """The phase's name in the server's language (a server's own variant keeps its own title)."""
    name = s.phase_name
    key = f"phase-{name}"
    return text(language, key) if has(language, key) else s.ruleset.phase_names.get(name, name)


def phase_title(s: GameState, language: str = "ru") -> str:
    """«День 2», «Ночь 1»; where a preset names more phases (blood: night, dawn, day, sunset, its
    «night» being the talk), they are counted by cycle, after the introductory ones."""
    name = phase_name(s, language)
    rules = s.ruleset
    if set(rules.loop_phases) <= {"day", "night"}:
        return text(language, "phase-numbered", name=name, number=s.day if s.phase == "day" else s.night)
    intro = len(rules.intro_phases)
    if s.position < intro:
        return text(language, "phase-intro", name=name)
    number = (s.position - intro) // len(rules.loop_phases) + 1
    return text(language, "phase-numbered", name=name, number=number)


def status_line(session: GameSession) -> str:
    """The panel's first line: «**День 2** — Говорит игрок №3 · до <t:…:R>»."""
    s, lang = session.state, session.language
    if s.over:
        return text(lang, "panel-over")
    kind = s.step.kind
    if _nominates_only(s):
        kind = "nomination_turn"  # FIIM D-FI8: the 3-foul player's turn, without a word of speech
    key = f"step-{kind}"
    # The phrase that hands the speech over, by its round: its words are on the panel where the
    # catalogue has «step-speech-<phrase>», else «step-speech».
    hand_over = s.ruleset.phrases.get(SPEECH_PHRASES.get(s.step.round, "")) if kind == "speech" else None
    if hand_over and has(lang, f"step-speech-{hand_over}"):
        # The kind of speech in the words of the host's hand-over (a last word, a defence…): that line
        # is not posted in the channel (render.announces_turn_only), the panel says it.
        key = f"step-speech-{hand_over}"
    step = (
        text(lang, key, seat=s.step.seat, phase=phase_name(s, lang))
        if kind in PANEL_STEPS or kind == "nomination_turn"
        else ""
    )
    deadline = session.deadline()
    # No countdown at night: a dead role's step is shorter (D-G8), its deadline would give it away.
    timer = (
        text(lang, "panel-until", when=f"<t:{int(deadline)}:R>") if deadline and s.phase != "night" else ""
    )
    # Only a moderator's pause is a pause. While the host speaks a step's opening line its clock has
    # not started: no countdown yet, and no «пауза» (at night a stale one, redrawn at a living role's
    # first action, told the table that the role had acted, D-G8).
    if session.manually_paused:
        timer = text(lang, "panel-paused")
    elif timer and session.ten_seconds_warned == session.serial:
        timer += text(lang, "panel-ten-left")  # (the host says it too: Table.countdown)
    return text(lang, "panel-title", phase=phase_title(s, lang), step=step, timer=timer)


def _nominates_only(s: GameState) -> bool:
    """A day speech whose speaker lost it to fouls: he is muted and may only nominate (FIIM D-FI8)."""
    step = s.step
    return not s.over and step.kind == "speech" and step.round == "day" and step.seat in s.no_speech


@lru_cache(maxsize=20_000)  # (ten a panel, at every click: the same names, ≈ 3 µs of regexes each)
def _name(name: str) -> str:
    """A display name as plain text: no markdown, no mention pings."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(name))


def seat_grid(session: GameSession) -> str:
    """One line per seat, in seat order: what the table knows of each now. (Each mark's words are looked
    up once a drawing, not once a seat: the grid is drawn at every click; issue 18.)"""
    s, lang = session.state, session.language
    speaking = s.step.seat if not s.over and s.step.kind == "speech" else None
    on_ballot = s.step.seat if not s.over and s.step.kind == "vote" else None
    nominated = {t for _, t in s.nominations} if s.phase == "day" else set()
    fouls: dict[int, int] = {}
    for seat, count in s.fouls:
        fouls.setdefault(seat, count)  # (the first, as GameState.fouls_of reads them)
    alive = s.alive
    out = ""
    lines = []
    for info in session.seats:
        seat = info.seat
        name = _name(info.name)
        if seat not in alive:
            out = out or text(lang, "seat-out")
            lines.append(f"`{seat:>2}` ~~{name}~~ · {out}")
            continue
        marks = ""
        if seat == speaking:
            marks += " · " + text(lang, "seat-nominates-only" if _nominates_only(s) else "seat-speaks")
        if seat == on_ballot:
            marks += " · " + text(lang, "seat-on-ballot")
        elif seat in nominated:
            marks += " · " + text(lang, "seat-nominated")
        if fouls.get(seat):
            marks += " · " + text(lang, "seat-fouls", count=fouls[seat])
        lines.append(f"`{seat:>2}` **{name}**{marks}")
    return "\n".join(lines)


def summary_line(session: GameSession) -> str:
    seats = ", ".join(str(x) for x in session.state.living())
    return text(session.language, "panel-alive", seats=seats)


def panel_texts(session: GameSession) -> list[str]:
    """The panel's text blocks, in order: the step, the seats, what a preset adds."""
    extras = [line for extra in STATUS_EXTRAS for line in extra(session)]
    blocks = [status_line(session), seat_grid(session) + "\n" + summary_line(session)]
    if extras:
        blocks.append("\n".join(extras))
    return blocks


def accent(s: GameState) -> int:
    if s.over:
        return ACCENTS["over"]
    return ACCENTS.get(s.phase_name, ACCENTS.get(s.phase, _OTHER_PHASE))


def _rows(items: list[discord.ui.Item[Any]]) -> list[discord.ui.ActionRow[Any]]:
    """The buttons first, in rows of up to five; then each select in a row of its own (Discord's rule)."""
    buttons = [item for item in items if isinstance(getattr(item, "item", item), discord.ui.Button)]
    selects = [item for item in items if item not in buttons]
    rows = [discord.ui.ActionRow(*buttons[i : i + 5]) for i in range(0, len(buttons), 5)]
    return rows + [discord.ui.ActionRow(item) for item in selects]


class DrawnPanel(discord.ui.LayoutView):
    """The panel as the components Discord reads (Components V2), drawn without discord.py's `ui` items:
    the panel is drawn at every click and twice a speech that runs out, and its items (a container, text
    displays, separators, rows, GameItems around buttons and selects) were ≈ 40 µs a drawing to make, turn
    into these dicts twice (to compare, to send) and take apart (issue 18). It has no items of its own:
    nothing discord.py would dispatch by it (its controls are reached by their custom ids, GameItem), so
    no view is stored for it, and nothing for the collector to walk."""

    def __init__(self, components: list[dict[str, Any]]) -> None:
        super().__init__(timeout=None)
        self.components = components

    def to_components(self) -> list[dict[str, Any]]:
        return self.components

    def has_components_v2(self) -> bool:
        return True


_SEPARATOR = {"type": 14, "divider": True, "spacing": 1}  # (visible, small: Separator(visible=True))


def panel_components(session: GameSession) -> list[dict[str, Any]]:
    """The whole panel's components: a container with the step, the seat grid and the controls (the
    buttons first, in rows of up to five; then each select in a row of its own: Discord's rule)."""
    texts = panel_texts(session)
    parts: list[dict[str, Any]] = [{"type": 10, "content": texts[0]}, dict(_SEPARATOR)]
    parts += [{"type": 10, "content": text} for text in texts[1:]]
    controls = panel_controls(session)
    if controls:
        buttons = [c for c in controls if c["type"] == 2]
        rows = [{"type": 1, "components": buttons[i : i + 5]} for i in range(0, len(buttons), 5)]
        rows += [{"type": 1, "components": [c]} for c in controls if c["type"] != 2]
        parts.append(dict(_SEPARATOR))
        parts += rows
    return [{"type": 17, "accent_color": accent(session.state), "spoiler": False, "components": parts}]


def panel_layout(session: GameSession) -> DrawnPanel:
    """The whole panel, as the view the table sends (`panel_components`)."""
    return DrawnPanel(panel_components(session))


def private_layout(shown: str, items: list[discord.ui.Item[Any]], colour: int) -> discord.ui.LayoutView:
    """A private message (a role card, a night prompt, a check's result) the way the panel is drawn: one
    container in the phase's colour with the text and, under a separator, the seat's controls. Discord's
    V2 limits: the text within 4,000 characters, at most 40 components (a prompt has a few)."""
    parts: list[discord.ui.Item[Any]] = [discord.ui.TextDisplay(shown[:4000])]
    rows = _rows(items)
    if rows:
        parts.append(discord.ui.Separator(visible=True))
        parts += rows
    view = MafiaLayoutView(timeout=None)
    view.add_item(discord.ui.Container(*parts, accent_colour=colour))
    return view


class PanelKey:
    """What the panel shows is drawn from these (issue 18: a refresh whose key is the last drawn one's is
    not drawn, nor compared): the game's state (compared by identity: the engine makes a new one for every
    change), the step's serial (in the controls' ids), the language, the seats' names, the countdown's
    second, a moderator's pause, the ten seconds' warning, and the presets' extras installed. A key that
    differs draws the panel, which is still edited only if what it shows differs (at night, a role's act
    makes a new state and the same panel: nothing is sent)."""

    __slots__ = ("rest", "state")

    def __init__(self, session: GameSession) -> None:
        self.state = session.state
        deadline = session.deadline()
        self.rest = (
            session.serial,
            session.language,
            tuple(session.seats),
            None if deadline is None else int(deadline),
            session.manually_paused,
            session.ten_seconds_warned == session.serial,
            len(STATUS_EXTRAS),
            len(PANEL_EXTRAS),
            len(PANEL_STEPS),
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PanelKey) and other.state is self.state and other.rest == self.rest

    __hash__ = None  # type: ignore[assignment]  # (a state is compared by identity, never hashed)


def panel_text(session: GameSession) -> str:
    """The panel's text as a reader sees it (the text displays one after another)."""
    return "\n".join(panel_texts(session))
