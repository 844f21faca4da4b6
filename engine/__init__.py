"""The rules engine of mafiabot: pure, deterministic, replayable.

``new_game`` seats a composition and starts the first phase; ``apply`` takes a state and a command and
returns the new state and the events. Nothing here does I/O, reads a clock or uses global randomness.
"""

from engine import ballot, day, resolution, wins  # noqa: F401  (register ability kinds, steps, tallies, wins)
from engine.commands import (
    Abort,
    Act,
    Advance,
    Answer,
    AskNominees,
    AwardVictory,
    Claim,
    Command,
    Foul,
    Nominate,
    OnRecord,
    Pass,
    Permit,
    Propose,
    Remove,
    RevokeImmunity,
    Skip,
    TeamAct,
    Unvote,
    Vote,
    Withdraw,
    command_from_json,
)
from engine.composition import composition, player_counts
from engine.errors import EngineError, IllegalCommand, RulesetError
from engine.events import Audience, Event
from engine.game import apply, deal, new_game, replay
from engine.kinds import (  # noqa: F401  (each preset's registered pieces)
    blood,
    city,
    city_day,
    classic_judges,
    classic_variants,
    fiim,
    fiim_day,
    hobbyworld,
    hobbyworld_day,
    hobbyworld_deck,
)
from engine.rules import Ruleset, available_presets, load_ruleset
from engine.state import GameState
from engine.view import events_for, view_for

__all__ = [
    "Abort",
    "Act",
    "Advance",
    "Answer",
    "AskNominees",
    "Audience",
    "AwardVictory",
    "Claim",
    "Command",
    "EngineError",
    "Event",
    "Foul",
    "GameState",
    "IllegalCommand",
    "Nominate",
    "OnRecord",
    "Pass",
    "Permit",
    "Propose",
    "Remove",
    "RevokeImmunity",
    "Ruleset",
    "RulesetError",
    "Skip",
    "TeamAct",
    "Unvote",
    "Vote",
    "Withdraw",
    "apply",
    "available_presets",
    "command_from_json",
    "composition",
    "deal",
    "events_for",
    "load_ruleset",
    "new_game",
    "player_counts",
    "replay",
    "view_for",
]
