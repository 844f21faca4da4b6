"""A lobby: players gathering in a voice channel before the deal."""

from __future__ import annotations

from dataclasses import dataclass, field

import engine


@dataclass
class Lobby:
    guild_id: int
    text_channel_id: int
    voice_channel_id: int
    creator_id: int
    ruleset_id: str
    options: tuple[str, ...] = ()
    players: list[int] = field(default_factory=list)  # user ids in join order
    names: dict[int, str] = field(default_factory=dict)
    message_id: int | None = None

    @property
    def ruleset(self) -> engine.Ruleset:
        return engine.load_ruleset(self.ruleset_id, self.options)

    def counts(self) -> list[int]:
        return engine.player_counts(self.ruleset)

    def composition_text(self) -> str:
        n = len(self.players)
        try:
            comp = engine.composition(self.ruleset, n)
        except engine.IllegalCommand:
            counts = self.counts()
            return f"нужно от {counts[0]} до {counts[-1]} игроков" if counts else "—"
        roles = self.ruleset.roles
        return ", ".join(
            f"{roles[r].display} ×{k}" if k > 1 else roles[r].display for r, k in sorted(comp.items())
        )

    def describe(self) -> str:
        rs = self.ruleset
        lines = [
            f"**Набор в игру «Мафия»** — правила: {rs.title} (`{rs.id}`)",
            f"Варианты: {', '.join(self.options)}" if self.options else "Варианты: нет",
            f"Голосовой канал: <#{self.voice_channel_id}>  ·  ведущий набора: <@{self.creator_id}>",
            f"Игроки ({len(self.players)}): " + (", ".join(f"<@{u}>" for u in self.players) or "пока никого"),
            f"Состав: {self.composition_text()}",
            "Таймеры: речь {speech} с, голосование {vote} с, ночной ход {night} с".format(
                speech=rs.timer("speech") or rs.timer("intro_speech"),
                vote=rs.timer("vote"),
                night=rs.timer("night_step"),
            ),
        ]
        return "\n".join(lines)
