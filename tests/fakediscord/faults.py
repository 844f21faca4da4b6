"""Faults Discord has and a test can ask for. This is the REST part: 5xx answers. (INVALID_SESSION is
`Gateway.invalidate_session`, a lost permission `Driver.set_role_permissions`.)

`fake.faults.fail(MEMBER_EDIT, status=503, times=2)` answers the next two member edits with 503 before
the handler runs, as Discord's edge does when a backend is down: nothing in the world changes. discord.py
retries 500, 502, 504 and 524 itself (sleeping 1 + 2·n s) but raises `DiscordServerError` on a 503 at
once, which is the case the bot must handle; `times=None` keeps failing until `clear()`.

`fake.faults.hold(route)` keeps every request to the route waiting, unanswered and not yet carried out,
until `release(route)`: a slow link or a slow Discord for that one route, everything else answered.

`fake.faults.hold_answers(route)` carries the requests to the route out at once (their gateway events
go) but keeps their answers until `release_answers(route)`: an answer slower than its event, which on
Discord the gateway can overtake.

`fake.faults.drop(MESSAGE_SEND, served=True)` closes the connection without an answer, as a reset link or
a proxy that gives up does: with `served=False` before the request reaches Discord (nothing changes),
with `served=True` after it was carried out (the message exists, the bot never hears so). aiohttp raises
`ServerDisconnectedError` for it, which discord.py passes on (it retries only a reset OSError).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

DROP = 0  # the "status" of a dropped connection in `served` and in the plans


@dataclass
class _Plan:
    status: int  # DROP: the connection is closed without an answer
    left: int | None  # None: for ever
    served: bool = False  # for a drop: carried out first


@dataclass
class Faults:
    plans: dict[str, _Plan] = field(default_factory=dict)
    served: list[tuple[str, int]] = field(default_factory=list)  # (route, status) of every fault served
    held: dict[str, asyncio.Event] = field(default_factory=dict)  # route -> set when released
    answers_held: dict[str, asyncio.Event] = field(default_factory=dict)  # ... carried out, answer kept

    def hold(self, route: str) -> None:
        """Keep the requests to `route` waiting (before they are carried out) until `release(route)`."""
        self.held.setdefault(route, asyncio.Event())

    def release(self, route: str) -> None:
        gate = self.held.pop(route, None)
        if gate is not None:
            gate.set()

    async def wait_if_held(self, route: str) -> None:
        gate = self.held.get(route)
        if gate is not None:
            await gate.wait()

    def hold_answers(self, route: str) -> None:
        """Carry out the requests to `route` but keep their answers until `release_answers(route)`."""
        self.answers_held.setdefault(route, asyncio.Event())

    def release_answers(self, route: str) -> None:
        gate = self.answers_held.pop(route, None)
        if gate is not None:
            gate.set()

    async def wait_if_answer_held(self, route: str) -> None:
        gate = self.answers_held.get(route)
        if gate is not None:
            await gate.wait()

    def fail(self, route: str, *, status: int = 503, times: int | None = 1) -> None:
        """Answer the next `times` requests to `route` (a template, e.g. MEMBER_EDIT) with `status`."""
        if not 500 <= status <= 599:
            raise ValueError("faults are server errors; permissions and rate limits have their own switches")
        self.plans[route] = _Plan(status, times)

    def drop(self, route: str, *, served: bool = False, times: int | None = 1) -> None:
        """Close the connection of the next `times` requests to `route` without an answer; with `served`
        the request is carried out first (only its answer is lost)."""
        self.plans[route] = _Plan(DROP, times, served)

    def clear(self, route: str | None = None) -> None:
        if route is None:
            self.plans.clear()
            for held in list(self.held):
                self.release(held)
            for held in list(self.answers_held):
                self.release_answers(held)
        else:
            self.plans.pop(route, None)
            self.release(route)
            self.release_answers(route)

    def take(self, route: str) -> _Plan | None:
        """What to do with this request instead of answering it, if a fault is planned."""
        plan = self.plans.get(route)
        if plan is None:
            return None
        if plan.left is not None:
            plan.left -= 1
            if plan.left <= 0:
                del self.plans[route]
        self.served.append((route, plan.status))
        return plan
