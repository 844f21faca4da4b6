"""What `/mafia rules` shows about each rulebook, in Russian.

The title and the player counts come from the presets themselves (`engine/presets/*.toml` and their
composition tables), so they cannot drift from the rules the bot plays; only the short summaries are
written here.
"""

from __future__ import annotations

from dataclasses import dataclass

import engine
from engine.rules import with_requirements


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


def _info(preset_id: str, summary: str) -> PresetInfo:
    ruleset = engine.load_ruleset(preset_id)
    return PresetInfo(preset_id, ruleset.title, players_text(ruleset), summary)


SUMMARIES: dict[str, str] = {
    "classic": "Клубные правила: мирные жители и комиссар против мафии. Днём город обсуждает и голосует, "
    "ночью мафия выбирает жертву, а комиссар проверяет игроков. Есть дополнительные персонажи "
    "и варианты: «золотая минута», пари, судьи.",
    "city": "Клубные правила с тремя командами: город (шериф, рейнджер, агент, доктор), мафия (дон, адвокат) "
    "и маньяк. Речи по очереди, казнь голосованием, замечания за нарушения правил клуба.",
    "hobbyworld": "Карточная игра «Мир Хобби»: мирные жители с лидером (детектив, шериф, судья…) против "
    "мафии, одиночки и, в большой игре, якудзы. Днём — суд Линча, ночью роли просыпаются по порядку.",
    "blood": "Вампиры против охотников, а день и ночь поменялись местами: ночью город казнит, днём охотники "
    "выбирают жертву. Повелители вампиров, оборотень как третья сторона.",
    "simple": "Короткие правила: мирные жители с комиссаром, путаной, доктором и маньяком против мафии "
    "с доном. Каждую ночь мафия убивает одного горожанина, днём город решает, кто покинет игру.",
}

PRESETS: tuple[PresetInfo, ...] = tuple(_info(preset_id, summary) for preset_id, summary in SUMMARIES.items())

PRESETS_BY_ID = {preset.id: preset for preset in PRESETS}
