"""The controls the presets beyond classic and simple need, plugged into the panel and the private
prompts through ``components.PANEL_EXTRAS`` / ``PROMPT_EXTRAS`` / ``STATUS_EXTRAS``.

Each function looks at the current step and offers only what the engine would accept there; the engine
still decides (a click it refuses is answered with its own message). The handlers are in
``mafiabot.cogs.variants``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from engine import queries
from engine.registry import STEP_KINDS
from mafiabot.game.components import (
    PANEL_EXTRAS,
    PROMPT_EVENTS,
    PROMPT_EXTRAS,
    STATUS_EXTRAS,
    GameItem,
    button,
    custom_id,
    role_name,
    seat_select,
)
from mafiabot.i18n import text

if TYPE_CHECKING:
    from mafiabot.game.session import GameSession

Items = list[discord.ui.Item[Any]]

# The presets' own steps, each with its panel line («step-<kind>» in mafiabot/locales).
STEP_NAMES = ("lift", "acquittal", "court", "court_choice", "golden", "bets", "two_cards")

ACT_NAMES = {"kill": "control-act-kill", "check": "control-act-check"}  # catalogue keys

# Private ballots and day abilities whose actors get a prompt when their step opens.
PRIVATE_STEPS = ("acquittal", "court", "court_choice", "best_move")


def _speech_controls(session: GameSession) -> Items:
    """City: «Разрешаю N / Запрещаю N» and «Кто выставлен?» during one's own minute; fiim: «Отозвать»."""
    s, lang = session.state, session.language
    step = s.step
    if s.phase != "day" or step.kind != "speech" or step.round != "day" or s.over:
        return []
    items: Items = []
    if s.ruleset.params.get("withdraw") in ("explicit", "auto") and any(
        by == step.seat for by, _ in s.nominations
    ):
        # FIIM D-FI8: the speaker takes his nomination back in his own minute («Отозвано»); where a new
        # nomination also withdraws the old one ([MR 7.5 option 2]) he may still withdraw it alone.
        label = text(lang, "control-withdraw")
        items.append(button(session, "withdraw", label, discord.ButtonStyle.secondary))
    if s.ruleset.phrase("nominees_list"):
        items.append(
            button(session, "nominees", text(lang, "control-nominees"), discord.ButtonStyle.secondary)
        )
    if s.ruleset.params.get("speech_permissions"):
        allowed = set(step.permitted)
        others = [x for x in s.living() if x != step.seat and x not in s.no_speech]
        free = [x for x in others if x not in allowed]
        if free:
            items.append(seat_select(session, "permit", text(lang, "control-permit"), free))
        if allowed:
            items.append(seat_select(session, "forbid", text(lang, "control-forbid"), sorted(allowed)))
    return items


def _day_step_controls(session: GameSession) -> Items:
    s, lang = session.state, session.language
    kind = s.step.kind
    if s.over or s.phase != "day":
        return []
    if kind == "lift":
        seats = ", ".join(text(lang, "seat-number", seat=x) for x in s.step.candidates)
        label = text(lang, "control-lift", seats=seats)[:80]
        return [button(session, "lift", label, discord.ButtonStyle.danger)]
    if kind in PRIVATE_STEPS:
        return [button(session, "turn", text(lang, "control-turn"), discord.ButtonStyle.primary)]
    if kind == "golden":
        return [button(session, "golden", text(lang, "control-golden"), discord.ButtonStyle.primary)]
    if kind == "bets":
        return [seat_select(session, "bet", text(lang, "control-bet"), s.living())]
    if kind == "two_cards":
        return [
            button(session, "hidden", text(lang, "control-card-hidden"), discord.ButtonStyle.secondary),
            button(session, "opponent", text(lang, "control-card-opponent"), discord.ButtonStyle.danger),
        ]
    return []


def _immunity(session: GameSession) -> list[str]:
    s = session.state
    if s.over or not s.immune:
        return []
    seats = ", ".join(text(session.language, "seat-number", seat=x) for x in sorted(s.immune))
    return [text(session.language, "panel-immunity", seats=seats)]


# -- private prompts -------------------------------------------------------------------------------


def ability_select(
    session: GameSession, act: str, placeholder: str, seats: list[int], count: int
) -> GameItem:
    """A select of the targets of one ability; ``count`` values exactly (the journalist's two)."""
    options = [
        discord.SelectOption(
            label=text(session.language, "seat-option", seat=x, name=session.name_of(x))[:100], value=str(x)
        )
        for x in seats
    ]
    cid = custom_id(session.game_id, session.serial, "ability", act or "one")
    select: discord.ui.Select[Any] = discord.ui.Select(
        custom_id=cid, placeholder=placeholder, options=options[:25], min_values=count, max_values=count
    )
    return GameItem(select)


def _night_prompt(session: GameSession, seat: int) -> tuple[str, Items] | None:
    """A role with two abilities at one step (kill or check) or with two targets (journalist,
    revenant); the don who designates the mafia's target. (A prisoner is woken but is no actor: the
    engine tells him so, D-H15.)"""
    s, lang = session.state, session.language
    if s.phase != "night" or s.step.kind != "night":
        return None
    options = queries.targets_for(s, seat)
    if not options:
        return None
    role = role_name(session, s.role_of(seat))
    if "team" in options:
        return _designation(session, seat, options["team"])
    counts = {act: queries.targets_needed(s, seat, act) for act in options}
    if len(options) < 2 and all(n == 1 for n in counts.values()):
        return None  # the core prompt does
    items: Items = []
    for act, targets in options.items():
        n = counts[act]
        if len(targets) < n:
            continue
        verb = text(lang, ACT_NAMES.get(act, "control-act-other"))
        placeholder = text(lang, "control-act-two" if n == 2 else "control-act-one", verb=verb)
        items.append(ability_select(session, act, placeholder, targets, n))
    if queries.is_optional(s, seat):
        items.append(button(session, "skip", text(lang, "control-skip"), discord.ButtonStyle.secondary))
    if len(options) > 1:
        acts = text(lang, "prompt-act-or").join(
            text(lang, "prompt-act-name", act=text(lang, ACT_NAMES.get(a, "control-act-other")))
            for a in options
        )
        said = text(lang, "prompt-choose-act", role=role, acts=acts)
    elif max(counts.values()) == 2:
        said = text(lang, "prompt-choose-two", role=role)
    else:
        said = text(lang, "prompt-your-turn", role=role)
    return said, items


def _designation(session: GameSession, seat: int, targets: list[int]) -> tuple[str, Items] | None:
    """City D-C10: the don's pick is the mafia's target; he is told so. While he lives, the others' picks
    are only proposals to him (issue 13: the lawyer was offered «Ваш выбор» that did nothing)."""
    s = session.state
    team = s.team_of(seat)
    tdef = s.ruleset.teams.get(team) if team else None
    if tdef is None or tdef.tie != "designate" or not tdef.leader:
        return None
    lang = session.language
    if s.role_of(seat) == tdef.leader:
        select = seat_select(session, "propose", text(lang, "control-mafia-target"), targets)
        return text(lang, "prompt-designate"), [select]
    leaders = [x for x in s.team_members(team) if s.role_of(x) == tdef.leader]
    if not leaders:
        return None  # without the don every living member's pick counts (the core prompt)
    role = role_name(session, s.role_of(seat))
    select = seat_select(session, "suggest", text(lang, "control-suggest"), targets)
    return text(lang, "prompt-suggest", role=role, leader=leaders[0]), [select]


def _day_prompt(session: GameSession, seat: int) -> tuple[str, Items] | None:
    s, lang = session.state, session.language
    kind = s.step.kind
    if s.phase != "day" or kind not in PRIVATE_STEPS:
        return None
    if kind == "best_move":  # FIIM D-FI13: the first-night victim names three seats, privately
        if seat not in queries.actors(s):
            return None
        targets = STEP_KINDS[kind].targets(s, seat)
        select = ability_select(session, "", text(lang, "control-best-move"), targets, 3)
        return text(lang, "prompt-best-move"), [select]
    if kind == "acquittal":
        if seat not in queries.actors(s):
            return None
        accused = s.step.seat
        label = text(lang, "control-acquit", seat=accused)
        acquit = button(session, "acquit", label, discord.ButtonStyle.success, accused)
        return text(lang, "prompt-acquittal", seat=accused), [acquit]
    if seat not in queries.voters(s):
        return None
    if kind == "court":
        accused = s.step.seat
        return text(lang, "prompt-court", seat=accused), [
            button(session, "court", text(lang, "control-execute"), discord.ButtonStyle.danger, accused),
            button(session, "court", text(lang, "control-pardon"), discord.ButtonStyle.success, 0),
        ]
    choices = STEP_KINDS[kind].choices(s, seat)
    select = seat_select(session, "court_pick", text(lang, "control-court-pick"), choices)
    return text(lang, "prompt-court-choice"), [select]


def install() -> None:
    """Plug the presets' controls in (idempotent: a reloaded cog does not add them twice)."""
    from mafiabot.game.panel import PANEL_STEPS

    for registry, extra in (
        (PANEL_EXTRAS, _speech_controls),
        (PANEL_EXTRAS, _day_step_controls),
        (STATUS_EXTRAS, _immunity),
        (PROMPT_EXTRAS, _night_prompt),
        (PROMPT_EXTRAS, _day_prompt),
    ):
        if extra not in registry:
            registry.append(extra)  # type: ignore[arg-type]
    # «extra_shot»: the team step opens again after its shot killed its impostor (D-H7).
    PROMPT_EVENTS.update(
        {"acquittal_offer", "court_ballot", "court_choice_ballot", "extra_shot", "best_move_offer"}
    )
    PANEL_STEPS.update(STEP_NAMES)
