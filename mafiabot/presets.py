"""What `/mafia rules` shows about each rulebook, in the server's language (Russian: the presets' own
words; English: the catalogue's ``summary-<id>`` and ``choice-<id>``).

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
from mafiabot.i18n import DEFAULT, has, preset_title, text, variant_about

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class PresetInfo:
    id: str
    title: str
    players: str
    summary: str


def _span(counts: list[int], language: str) -> str:
    if counts[0] == counts[-1]:
        return text(language, "players-exactly", count=counts[0])
    return text(language, "players-span", low=counts[0], high=counts[-1])


def players_text(ruleset: engine.Ruleset, source: str = "", language: str = DEFAULT) -> str:
    """The counts the preset deals for, and those of any variant that deals for others. ``source``: the
    file of a server's variant (its id is not a bundled preset's)."""
    source = source or ruleset.id
    counts = engine.player_counts(ruleset)
    shown = _span(counts, language)
    for name, description in ruleset.options.items():
        other = engine.player_counts(engine.load_ruleset(source, with_requirements(source, name)))
        if other and other != counts:
            variant = variant_about(language, ruleset.id, name, description)
            shown = text(
                language, "players-with-variant", players=shown, variant=variant, other=_span(other, language)
            )
    return shown


def preset_info(ruleset: engine.Ruleset, source: str = "", language: str = DEFAULT) -> PresetInfo:
    """A rulebook's title, players and summary in ``language`` (a server's own variant keeps its own
    title and summary: the catalogue has none for it)."""
    summary = ruleset.summary
    if language != DEFAULT and has(language, f"summary-{ruleset.id}"):
        summary = text(language, f"summary-{ruleset.id}")
    title = preset_title(language, ruleset)
    return PresetInfo(ruleset.id, title, players_text(ruleset, source, language), summary)


def info_in(info: PresetInfo, language: str) -> PresetInfo:
    """A bundled preset's info in ``language``."""
    if language == DEFAULT:
        return info
    return preset_info(engine.load_ruleset(info.id), language=language)


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
