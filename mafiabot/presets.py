"""What `/mafia rules` shows about each rulebook, in Russian.

Everything comes from the presets themselves (`engine/presets/*.toml`: the title, the `summary` and the
player counts of their composition tables), so it cannot drift from the rules the bot plays, and a new
preset file is listed without a change here.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import engine
from engine.rules import with_requirements

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


def players_text(ruleset: engine.Ruleset) -> str:
    """The counts the preset deals for, and those of any variant that deals for others."""
    counts = engine.player_counts(ruleset)
    text = _span(counts)
    for name, description in ruleset.options.items():
        other = engine.player_counts(engine.load_ruleset(ruleset.id, with_requirements(ruleset.id, name)))
        if other and other != counts:
            text += f"; с вариантом «{description}»: {_span(other)}"
    return text


def preset_info(ruleset: engine.Ruleset) -> PresetInfo:
    return PresetInfo(ruleset.id, ruleset.title, players_text(ruleset), ruleset.summary)


def _bundled() -> tuple[PresetInfo, ...]:
    """Every bundled preset that loads; a broken one is logged and left out, never fatal."""
    found = []
    for preset_id in engine.available_presets():
        try:
            found.append(preset_info(engine.load_ruleset(preset_id)))
        except engine.RulesetError:
            log.exception("Preset %s does not load; it is not offered", preset_id)
    return tuple(found)


PRESETS: tuple[PresetInfo, ...] = _bundled()

PRESETS_BY_ID = {preset.id: preset for preset in PRESETS}
