"""A lobby: players gathering in a voice channel before the deal."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import engine
from mafiabot.config import GameSettings
from mafiabot.i18n import preset_title, role_display, text, variant_about
from mafiabot.presets import load_ruleset

# The preset's timers shown in the lobby, in the order a game meets them (named by ``timer-<key>``).
TIMER_NAMES = (
    "intro_speech",
    "speech",
    "discussion",
    "nominations",
    "last_word",
    "vote",
    "farewell",
    "night_step",
)


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
    # A start is under way (not stored: a restart reopens the lobby unstarted): a join, a leave or a change
    # of the variants meanwhile would not be in the game its answer showed them in, and a second start
    # (a double click) would start it twice.
    starting: bool = False

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
            return text(self.language, "lobby-counts", low=counts[0], high=counts[-1]) if counts else "—"
        if self.ruleset.params.get("composer") == "whole_deck":
            # D-CL16: «состав случаен и известен только ведущему» — the lobby shows no counts.
            return text(self.language, "lobby-whole-deck", cards=sum(comp.values()))
        names = {r: role_display(self.language, self.ruleset, r) for r in comp}
        return ", ".join(f"{names[r]} ×{k}" if k > 1 else names[r] for r, k in sorted(comp.items()))

    @property
    def language(self) -> str:
        """The server's language when the lobby opened: its texts and then its game's."""
        return self.game.language

    def describe(self, blocking: Sequence[str] = (), notes: Sequence[str] = ()) -> str:
        """The lobby message; ``blocking`` are the bot's missing permissions by channel (they stop the
        start), ``notes`` what an optional missing permission will cost (`mafiabot.needs`)."""
        rs, lang = self.ruleset, self.language
        players = ", ".join(f"<@{u}>" for u in self.players) or text(lang, "lobby-players-none")
        timers = ", ".join(
            text(lang, "lobby-timer", name=text(lang, f"timer-{key}"), seconds=rs.timers[key])
            for key in TIMER_NAMES
            if rs.timers.get(key)
        )
        lines = [
            text(lang, "lobby-title", title=preset_title(lang, rs), id=rs.id),
            text(
                lang,
                "lobby-options",
                options="; ".join(
                    variant_about(lang, rs.id, o, self.base_ruleset.options.get(o, o)) for o in self.options
                ),
            )
            if self.options
            else text(lang, "lobby-options-none"),
            text(lang, "lobby-channel", channel=str(self.voice_channel_id), creator=str(self.creator_id)),
            text(lang, "lobby-players", count=len(self.players), players=players),
            text(lang, "lobby-composition", composition=self.composition_text()),
            text(lang, "lobby-timers", timers=timers),
        ]
        if blocking:
            lines.append(text(lang, "lobby-missing", missing="; ".join(blocking)))
        lines += [f"ℹ️ {note[0].upper()}{note[1:]}." for note in notes]
        return "\n".join(lines)
