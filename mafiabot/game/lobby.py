"""A lobby: players gathering in a voice channel before the deal."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import engine
from mafiabot.config import GameSettings
from mafiabot.presets import load_ruleset

TIMER_NAMES = {  # the preset's timers shown in the lobby, in the order a game meets them
    "intro_speech": "знакомство",
    "speech": "речь",
    "discussion": "обсуждение",
    "nominations": "выдвижение",
    "last_word": "последнее слово",
    "vote": "голосование",
    "farewell": "прощальная речь",
    "night_step": "ночной ход",
}


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
    nicknames: bool = False  # seat numbers put in front of players' nicknames, «1 · Имя»
    game: GameSettings = field(default_factory=GameSettings)  # the bot's `[game]` settings
    opened_at: float = field(default_factory=time.time)  # the lobby's timeout counts from here
    mute_spectators: bool = True  # the server's setting (`/mafia-admin spectators`)
    # The stored lobby (the game row it becomes at the start); None without a database.
    game_id: int | None = None

    @property
    def base_ruleset(self) -> engine.Ruleset:
        """The preset without options: it lists the variants the creator may choose."""
        return load_ruleset(self.ruleset_id, (), self.game)

    @property
    def ruleset(self) -> engine.Ruleset:
        return load_ruleset(self.ruleset_id, self.options, self.game)

    def counts(self) -> list[int]:
        return engine.player_counts(self.ruleset)

    def composition_text(self) -> str:
        n = len(self.players)
        try:
            comp = engine.composition(self.ruleset, n)
        except engine.IllegalCommand:
            counts = self.counts()
            return f"нужно от {counts[0]} до {counts[-1]} игроков" if counts else "—"
        if self.ruleset.params.get("composer") == "whole_deck":
            # D-CL16: «состав случаен и известен только ведущему» — the lobby shows no counts.
            return f"вся колода перетасована ({sum(comp.values())} карт): кому что достанется — тайна"
        roles = self.ruleset.roles
        return ", ".join(
            f"{roles[r].display} ×{k}" if k > 1 else roles[r].display for r, k in sorted(comp.items())
        )

    def describe(self, blocking: Sequence[str] = (), notes: Sequence[str] = ()) -> str:
        """The lobby message; ``blocking`` are the bot's missing permissions by channel (they stop the
        start), ``notes`` what an optional missing permission will cost (`mafiabot.needs`)."""
        rs = self.ruleset
        lines = [
            f"**Набор в игру «Мафия»** — правила: {rs.title} (`{rs.id}`)",
            f"Варианты: {', '.join(self.options)}" if self.options else "Варианты: нет",
            f"Голосовой канал: <#{self.voice_channel_id}>  ·  ведущий набора: <@{self.creator_id}>",
            f"Игроки ({len(self.players)}): " + (", ".join(f"<@{u}>" for u in self.players) or "пока никого"),
            f"Состав: {self.composition_text()}",
            "Таймеры: "
            + ", ".join(
                f"{name} {rs.timers[key]} с" for key, name in TIMER_NAMES.items() if rs.timers.get(key)
            ),
        ]
        if blocking:
            lines.append(f"⚠️ Боту не хватает прав — {'; '.join(blocking)}. Без них игру не начать.")
        lines += [f"ℹ️ {note[0].upper()}{note[1:]}." for note in notes]
        return "\n".join(lines)
