"""What `/mafia rules` shows about each rulebook, in Russian.

Everything comes from the presets themselves (`engine/presets/*.toml`: the title, the `summary` and the
player counts of their composition tables), so it cannot drift from the rules the bot plays, and a new
preset file is listed without a change here.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import engine
from engine.rules import with_requirements
from mafiabot.config import GameSettings

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class PresetInfo:
    id: str
    title: str
    players: str
    summary: str


def _span(counts: list[int]) -> str:
    if counts[0] == counts[-1]:
        return f"{counts[0]} игроков"
    return f"от {counts[0]} до {counts[-1]} игроков"


def players_text(ruleset: engine.Ruleset, source: str = "") -> str:
    """The counts the preset deals for, and those of any variant that deals for others. ``source``: the
    file of a server's variant (its id is not a bundled preset's)."""
    source = source or ruleset.id
    counts = engine.player_counts(ruleset)
    text = _span(counts)
    for name, description in ruleset.options.items():
        other = engine.player_counts(engine.load_ruleset(source, with_requirements(source, name)))
        if other and other != counts:
            text += f"; с вариантом «{description}»: {_span(other)}"
    return text


def preset_info(ruleset: engine.Ruleset, source: str = "") -> PresetInfo:
    return PresetInfo(ruleset.id, ruleset.title, players_text(ruleset, source), ruleset.summary)


def _bundled() -> tuple[PresetInfo, ...]:
    """Every bundled preset that loads; a broken one is logged and left out, never fatal."""
    found = []
    for preset_id in engine.available_presets():
        try:
            found.append(preset_info(engine.load_ruleset(preset_id)))
        except engine.RulesetError:
            log.exception("Preset %s does not load; it is not offered", preset_id)
    return tuple(found)


def load_ruleset(
    ruleset_id: str, options: Iterable[str] | Mapping[str, bool] = (), game: GameSettings | None = None
) -> engine.Ruleset:
    """The rules a game of ``ruleset_id`` plays on this bot: a bundled preset or one of the server's
    variants (`[game] variants`), with the timers the settings replace (`[game] speech_seconds`, …)
    where the preset has them."""
    game = game or GameSettings()
    ruleset = engine.load_ruleset(game.variant_files.get(ruleset_id, ruleset_id), options)
    timers = {key: value for key, value in game.timers().items() if key in ruleset.timers}
    if timers:
        ruleset = dataclasses.replace(ruleset, timers={**ruleset.timers, **timers})
    return ruleset


def offered(game: GameSettings) -> tuple[PresetInfo, ...]:
    """What `/mafia new` offers: the bundled presets, then the server's own variants."""
    variants = game.variant_files.items()
    return PRESETS + tuple(preset_info(load_ruleset(rid, (), game), path) for rid, path in variants)


PRESETS: tuple[PresetInfo, ...] = _bundled()

PRESETS_BY_ID = {preset.id: preset for preset in PRESETS}
