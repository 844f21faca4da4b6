"""fiim's colours «под протокол» on the panel (FIIM.md F.7, D-FI15, [MR 6.7–6.8]): where the club's edition
takes them (``fiim.on_record`` other than "none"), the speaker leaves up to ``on_record_count`` seats with
a colour each in the speeches it names, once per speech. One select of «№N — чёрный» / «№N — красный» for
every other seat; the engine refuses what the rule does not allow (a seat twice, another's minute, a
3-foul player's nomination-only turn) with its own message. The handler is in mafiabot.cogs.judge.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from engine.kinds.fiim_day import ON_RECORD, ON_RECORD_ROUNDS
from mafiabot.game.components import PANEL_EXTRAS, GameItem, custom_id
from mafiabot.i18n import text

if TYPE_CHECKING:
    from mafiabot.game.session import GameSession

MARKS = {"b": "black", "r": "red"}  # a select value is «<seat><mark>»: «3b», «7r»


def _open(session: GameSession) -> bool:
    s = session.state
    step = s.step
    if s.over or s.phase != "day" or step.kind != "speech":
        return False
    rounds = ON_RECORD_ROUNDS.get(str(s.ruleset.params.get("on_record", "none")), ())
    if step.round not in rounds or (step.round == "day" and step.seat in s.no_speech):
        return False
    key = f"{ON_RECORD}{s.day}:{step.seat}:{step.round}:"
    return not any(f.startswith(key) for f in s.flags)  # once per speech


def on_record_select(session: GameSession) -> list[discord.ui.Item[Any]]:
    if not _open(session):
        return []
    s, lang = session.state, session.language
    speaker = s.step.seat
    options = []
    for seat in range(1, s.n_seats + 1):
        if seat == speaker:
            continue
        name = session.name_of(seat)
        for mark, colour in MARKS.items():
            label = text(lang, f"control-on-record-{colour}", seat=seat, name=name)[:100]
            options.append(discord.SelectOption(label=label, value=f"{seat}{mark}"))
    limit = min(int(s.ruleset.params.get("on_record_count", 3)), len(options))
    placeholder = text(lang, "control-on-record", count=limit)
    cid = custom_id(session.game_id, session.serial, "on_record")
    select: discord.ui.Select[Any] = discord.ui.Select(
        custom_id=cid, placeholder=placeholder, options=options[:25], min_values=1, max_values=limit
    )
    return [GameItem(select)]


def parse(values: list[str]) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """The select's values as the engine's targets and colours (a value it did not offer is dropped)."""
    picked = [(int(v[:-1]), MARKS[v[-1]]) for v in values if v[:-1].isdigit() and v[-1:] in MARKS]
    return tuple(t for t, _ in picked), tuple(c for _, c in picked)


def install() -> None:
    if on_record_select not in PANEL_EXTRAS:
        PANEL_EXTRAS.append(on_record_select)
