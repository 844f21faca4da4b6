"""How long the host waits in a night step nobody can act in (RULESETS D-G8).

Where deaths stay hidden (city, simple, classic) every role is called every night, dead or alive. The
length of a step is public: everybody hears the wake line and the sleep line. If a dead role's step always
took 5–15 s while a living one's took as long as its holder thought, a step of 25 s would tell the table
that the role is still in play. So the bot remembers how long the steps took that living players acted in
(per server, per preset and step), and a step nobody can act in lasts a length drawn from those: the two
kinds of step are then alike in length. Until a server has played enough nights (TRUST lengths of that
step), the draw leans on the lengths of the bot's other servers (or, with too few of those as well, on
the decision's own 5–15 s), less and less as the server's own lengths come in.

Nothing here talks to Discord; :class:`PacingKeeper` loads and stores each server's lengths.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mafiabot.storage import Storage

log = logging.getLogger(__name__)

KEY = "night_step_lengths"  # in the guild's stored settings: {"classic/commissar": [12.4, 30.0, ...]}
KEEP = 60  # lengths kept per step: the latest ones, so the draw follows how the server plays now
TRUST = 20  # from this many of the server's own lengths on, the draw takes only from them
LOW, HIGH = 5.0, 15.0  # D-G8's wait when nothing is known yet
JITTER = 1.0  # seconds either side, so a drawn length is not an exact copy of an earlier step


def step_key(ruleset_id: str, step_id: str) -> str:
    return f"{ruleset_id}/{step_id}"


class NightPacing:
    """The lengths of night steps that living players took, and draws for the steps nobody can act in."""

    def __init__(
        self,
        lengths: dict[str, list[float]] | None = None,
        elsewhere: Callable[[str], Sequence[float]] | None = None,
    ) -> None:
        self.lengths: dict[str, list[float]] = {k: list(v)[-KEEP:] for k, v in (lengths or {}).items()}
        self.elsewhere = elsewhere  # the same step's lengths on the bot's other servers
        self.changed = False

    def record(self, key: str, seconds: float) -> None:
        """A step some living player could act in lasted ``seconds`` (of its own clock: pauses and the
        host's opening line not counted)."""
        if seconds < 0:
            return
        kept = self.lengths.setdefault(key, [])
        kept.append(round(seconds, 1))
        del kept[:-KEEP]
        self.changed = True

    def draw(self, key: str, rnd: random.Random, limit: float) -> float:
        """How long a step nobody can act in lasts, at most ``limit`` (the step's timer)."""
        seen: Sequence[float] = self.lengths.get(key, [])
        if not (seen and rnd.random() < len(seen) / TRUST):
            seen = self.elsewhere(key) if self.elsewhere is not None else ()
            if len(seen) < TRUST:
                return max(1.0, min(float(limit), rnd.uniform(LOW, HIGH)))
        value = rnd.choice(seen) + rnd.uniform(-JITTER, JITTER)
        return max(1.0, min(float(limit), value))

    def to_json(self) -> dict[str, list[float]]:
        return {k: list(v) for k, v in sorted(self.lengths.items()) if v}

    @classmethod
    def from_json(cls, data: Any, elsewhere: Callable[[str], Sequence[float]] | None = None) -> NightPacing:
        """Stored lengths; anything malformed is dropped rather than trusted."""
        lengths: dict[str, list[float]] = {}
        if isinstance(data, dict):
            for key, values in data.items():
                if isinstance(key, str) and isinstance(values, list):
                    good = [float(v) for v in values if isinstance(v, int | float) and 0 <= v <= 3600]
                    if good:
                        lengths[key] = good
        return cls(lengths, elsewhere)


class PacingKeeper:
    """Each server's night pacing: every stored one is loaded once, when the first game starts after the
    bot does (a server's draws lean on the others' until it has its own); stored when a game closes."""

    def __init__(self, storage: Storage | None) -> None:
        self.storage = storage
        self.guilds: dict[int, NightPacing] = {}
        self._load: asyncio.Task[None] | None = None  # every caller waits for the one load

    def elsewhere(self, guild_id: int) -> Callable[[str], Sequence[float]]:
        def lengths(key: str) -> list[float]:
            return [x for g, p in self.guilds.items() if g != guild_id for x in p.lengths.get(key, ())]

        return lengths

    async def for_guild(self, guild_id: int) -> NightPacing:
        if self._load is None:
            self._load = asyncio.ensure_future(self._load_all())
        await asyncio.shield(self._load)
        pacing = self.guilds.get(guild_id)
        if pacing is None:
            pacing = self.guilds[guild_id] = NightPacing(None, self.elsewhere(guild_id))
        return pacing

    async def _load_all(self) -> None:
        storage = self.storage
        if storage is None:
            return
        try:
            stored = await asyncio.to_thread(storage.guild_values, KEY)
        except Exception:  # the lengths are a nicety: without them the draws fall back to 5–15 s
            log.exception("Could not load the night pacing")
            return
        for gid, data in stored.items():
            self.guilds.setdefault(gid, NightPacing.from_json(data, self.elsewhere(gid)))

    async def save(self, guild_id: int) -> None:
        pacing = self.guilds.get(guild_id)
        storage = self.storage
        if pacing is None or storage is None or not pacing.changed:
            return
        pacing.changed = False
        await asyncio.to_thread(storage.set_guild_value, guild_id, KEY, pacing.to_json())
