"""What a chaos run measured (tests/chaos/monkey.py counts, tests/chaos/soak.py reports)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field


@dataclass
class Figures:
    """What a run measured; a defect is anything the promises forbid."""

    games: int = 0
    kills: int = 0
    named_kills: int = 0
    restarts: int = 0
    acknowledged: int = 0
    lost_commands: int = 0
    doubled_commands: int = 0
    zombie_games: int = 0
    left_muted: int = 0
    wrong_mutes: int = 0
    wrong_step: int = 0
    lobby_kills: int = 0  # SIGKILLs while a lobby was open
    lost_lobbies: int = 0  # a lobby not reopened, or reopened without a player whose join was answered
    time_lost: list[float] = field(default_factory=list)  # seconds of a step's time lost per restart
    # Seconds from the harness seeing a game over to every member's voice given back / to the game closed
    given_back_after: list[float] = field(default_factory=list)
    closed_after: list[float] = field(default_factory=list)
    defects: list[str] = field(default_factory=list)
    presets: Counter[str] = field(default_factory=Counter)

    def defect(self, text: str) -> None:
        self.defects.append(text)
