"""Named kill points for the crash harness (tests/chaos, scripts/chaos): inert unless the operator sets
``MAFIABOT_CHAOS_KILL_AT``.

``MAFIABOT_CHAOS_KILL_AT=command_committed:3`` makes the third pass through
``kill_point("command_committed")`` SIGKILL its own process, the way a power cut or the OOM killer
would: no ``finally`` runs, nothing is flushed. Several points may be given, comma separated; each fires
once. The harness uses it to crash the bot exactly where the lifecycle is most fragile (between a commit
and its effect, mid-release…), which a random kill from outside would hit only rarely.

Every name passed to :func:`kill_point` is listed in ``POINTS`` so the harness can name them all.
"""

from __future__ import annotations

import os
import signal

POINTS = (
    "command_committed",  # a command is in the log, the state in memory not yet moved on
    "mid_transaction",  # inside the transaction that stores a command (it must roll back whole)
    "after_mute",  # after the n-th server-mute Discord confirmed
    "game_over_in_memory",  # the engine says the game is over; nothing of the end is stored yet
    "during_release",  # the game is over in storage, its members are being given their voice back
    "after_stop",  # a moderator's stop is stored
    "game_created",  # the game row and its seats are stored; nothing is posted or muted yet
    "timers_stored",  # the step's clock is stored
)

_armed: dict[str, int] = {}
for _item in filter(None, (part.strip() for part in os.environ.get("MAFIABOT_CHAOS_KILL_AT", "").split(","))):
    _name, _, _count = _item.partition(":")
    if _name not in POINTS:
        raise ValueError(f"MAFIABOT_CHAOS_KILL_AT names {_name!r}; the kill points are {', '.join(POINTS)}")
    _armed[_name] = int(_count or 1)


def kill_point(name: str) -> None:
    """SIGKILL this process on the configured pass through `name`; nothing at all when not configured."""
    if not _armed or name not in _armed:
        return
    _armed[name] -= 1
    if _armed[name] <= 0:
        os.kill(os.getpid(), signal.SIGKILL)
