"""D-G8 timing: a night step nobody can act in lasts as long as the steps living players took.

RULESETS D-G8: in city, simple and classic «every role in the composition is called every night with its
wake/sleep lines and a normal wait …, whether or not its holder is alive». The issue asks that timing
reveal nothing: a dead role's step must not be recognisable by its length. The session runs on a clock
moved by hand; no Discord is involved (the session does no Discord I/O): ``play`` does what the game
service's door does with a command, without storing or showing it.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

from engine import load_ruleset
from engine.commands import Act, Advance, Command
from engine.events import Event
from engine.record import play_record
from mafiabot.game.pacing import KEEP, KEY, TRUST, NightPacing, PacingKeeper
from mafiabot.game.session import GameSession, SeatInfo
from mafiabot.storage import Storage

SEATS = ["mafioso", "mafioso", "commissar", "civilian", "civilian", "civilian", "civilian"]
COMMISSAR = "classic/commissar"


class Quiet:
    """A listener that lets a step's time run out unheard (the tests move the clock by hand)."""

    async def on_due(self, session: GameSession, serial: int) -> None:
        pass

    async def on_tick(self, session: GameSession, seconds_left: int) -> None:
        pass


async def play(session: GameSession, command: Command) -> list[Event]:
    async with session.lock:
        _, events = session.apply(command)
        session.arm()
    return events


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def _log(day_two: dict[str, Any]) -> list[Command]:
    """The commands of day 1, night 1 (the mafia meets) and day 2 of a 7-player classic game."""
    record = {
        "ruleset": "classic",
        "seed": 3,
        "seats": SEATS,
        "script": [{"day": {}}, {"night": []}, {"day": day_two}],
    }
    return play_record(record).commands


async def _session(day_two: dict[str, Any], pacing: NightPacing, seed: int, clock: Clock) -> GameSession:
    session = GameSession(
        game_id=seed,
        ruleset=load_ruleset("classic"),
        seats=[SeatInfo(i + 1, 100 + i, f"p{i + 1}") for i in range(len(SEATS))],
        roles=SEATS,
        seed=seed,
        listener=Quiet(),
        clock=clock,
        commands=_log(day_two),
        pacing=pacing,
    )
    while session.state.phase != "night" or session.state.step.night_step != "commissar":
        await play(session, Advance())
    return session


def _length(session: GameSession) -> float:
    deadline = session.deadline()
    assert deadline is not None
    return deadline - session.state.step.started_at - session.extension


COMMISSAR_EXECUTED = {"nominations": [[1, 3]], "votes": [[3, [1, 2, 4, 5, 6, 7]]]}


async def test_a_dead_roles_step_lasts_as_long_as_living_players_took() -> None:
    """The server's commissars took 24–28 s; the dead commissar's step lasts about as long, not 5–15 s
    (which would tell the table he is dead), and never longer than the step's timer."""
    lengths = [24.0 + (i % 5) for i in range(KEEP)]
    drawn = []
    for seed in range(12):
        clock = Clock()
        session = await _session(COMMISSAR_EXECUTED, NightPacing({COMMISSAR: lengths}), seed, clock)
        assert 3 not in session.state.alive and session.state.step.seconds == 30
        drawn.append(_length(session))
        await session.close()
    assert all(23.0 <= x <= 29.0 for x in drawn), drawn
    assert len({round(x, 3) for x in drawn}) > 6, "drawn, not fixed"


async def test_a_living_players_step_teaches_the_pacing_its_length() -> None:
    pacing = NightPacing()
    clock = Clock()
    session = await _session({}, pacing, 1, clock)
    assert 3 in session.state.alive
    clock.now += 22.0
    await play(session, Act(seat=3, targets=(1,)))
    assert _length(session) == 22.0, "acted after 15 s: the step closes now"
    await play(session, Advance())
    assert pacing.lengths[COMMISSAR] == [22.0]
    await session.close()


async def test_a_step_closed_by_its_actor_early_still_lasts_a_normal_while() -> None:
    clock = Clock()
    session = await _session({}, NightPacing(), 2, clock)
    clock.now += 1.0
    await play(session, Act(seat=3, targets=(1,)))
    assert 5.0 <= _length(session) <= 15.0
    await session.close()


async def test_a_paused_or_extended_step_teaches_nothing() -> None:
    pacing = NightPacing()
    clock = Clock()
    session = await _session({}, pacing, 1, clock)
    session.extend(20)
    clock.now += 40.0
    await play(session, Advance())
    assert COMMISSAR not in pacing.lengths
    await session.close()


async def test_a_dead_roles_step_keeps_its_drawn_length_through_the_hosts_opening_line() -> None:
    """The clock stops while the host speaks the wake line; the drawn length counts after it."""
    clock = Clock()
    session = await _session(COMMISSAR_EXECUTED, NightPacing({COMMISSAR: [26.0] * KEEP}), 5, clock)
    before = _length(session)
    session.pause()
    clock.now += 7.0
    session.resume()
    assert abs(_length(session) - before) < 1e-6
    deadline = session.deadline()
    assert deadline is not None and abs(deadline - (clock.now + before)) < 1e-6
    await session.close()


def test_dead_steps_are_as_long_as_living_ones_once_the_server_has_played() -> None:
    """What the table can measure: how often a step runs past 15 s. Living players here take 3–14 s
    or let the 30 s run out (40 %); the steps nobody can act in do the same, within sampling noise."""
    rnd = random.Random(7)
    pacing = NightPacing()
    for _ in range(KEEP):
        pacing.record(COMMISSAR, 30.0 if rnd.random() < 0.4 else rnd.uniform(3, 14))
    live = pacing.lengths[COMMISSAR]
    dead = [pacing.draw(COMMISSAR, rnd, 30) for _ in range(4000)]
    long_live = sum(x > 15 for x in live) / len(live)
    long_dead = sum(x > 15 for x in dead) / len(dead)
    assert abs(long_live - long_dead) < 0.03, (long_live, long_dead)
    assert max(dead) <= 30.0 and min(dead) >= 1.0


def test_with_nothing_known_the_wait_is_the_decisions_5_to_15_seconds() -> None:
    rnd = random.Random(1)
    draws = [NightPacing().draw(COMMISSAR, rnd, 30) for _ in range(200)]
    assert all(5.0 <= x <= 15.0 for x in draws)


def test_a_few_lengths_blend_with_the_decision_until_trusted() -> None:
    rnd = random.Random(2)
    pacing = NightPacing({COMMISSAR: [28.0] * (TRUST // 2)})
    draws = [pacing.draw(COMMISSAR, rnd, 30) for _ in range(2000)]
    from_server = sum(x > 20 for x in draws) / len(draws)
    assert 0.45 < from_server < 0.55


def test_only_the_latest_lengths_are_kept_and_bad_stored_data_is_dropped() -> None:
    pacing = NightPacing()
    for i in range(KEEP + 5):
        pacing.record(COMMISSAR, float(i))
    assert pacing.lengths[COMMISSAR] == [float(i) for i in range(5, KEEP + 5)]
    loaded = NightPacing.from_json({COMMISSAR: [3, "x", -1, 12.5, None], "bad": "x", "empty": [], 5: [1]})
    assert loaded.lengths == {COMMISSAR: [3.0, 12.5]}
    assert NightPacing.from_json("nonsense").lengths == {}


def test_a_new_server_draws_from_the_other_servers_lengths() -> None:
    """Until a server has TRUST lengths of its own, its draws come from the bot's other servers (their
    lengths are closer to how living players take a step than the decision's 5–15 s)."""
    rnd = random.Random(4)
    elsewhere = [26.0] * TRUST
    fresh = NightPacing(None, lambda key: elsewhere if key == COMMISSAR else [])
    assert all(25.0 <= fresh.draw(COMMISSAR, rnd, 30) <= 27.0 for _ in range(200))
    assert all(5.0 <= fresh.draw("classic/doctor", rnd, 30) <= 15.0 for _ in range(200))
    few = NightPacing(None, lambda key: elsewhere[:3])  # too few elsewhere as well: the decision's wait
    assert all(5.0 <= few.draw(COMMISSAR, rnd, 30) <= 15.0 for _ in range(200))


async def test_each_servers_lengths_are_stored_and_read_back(tmp_path: Any) -> None:
    storage = Storage.open(f"sqlite:///{tmp_path / 'pacing.db'}")
    try:
        keeper = PacingKeeper(storage)
        pacing = await keeper.for_guild(10)
        pacing.record(COMMISSAR, 21.5)
        await keeper.save(10)
        assert storage.guild_settings(10).ruleset_defaults[KEY] == {COMMISSAR: [21.5]}
        assert storage.guild_settings(11).ruleset_defaults == {}
        restarted = PacingKeeper(storage)  # a restarted bot loads every server's lengths at once
        again, other = await asyncio.gather(restarted.for_guild(10), restarted.for_guild(11))
        assert again.lengths == {COMMISSAR: [21.5]}
        assert other.lengths == {} and other.elsewhere is not None
        assert other.elsewhere(COMMISSAR) == [21.5] and again.elsewhere is not None
        assert again.elsewhere(COMMISSAR) == []  # a server's own lengths are not "elsewhere"
        assert storage.guild_values(KEY) == {10: {COMMISSAR: [21.5]}}
    finally:
        storage.close()


async def test_a_restart_gives_a_dead_roles_step_the_time_it_had_left() -> None:
    """The step's early close (D-G8's drawn length) is in the time it had left when the bot went down;
    the restarted step keeps that time instead of drawing its close again against a clock set to the
    step's full length (the chaos soak saw a step lose 17 s that way)."""
    lengths = [24.0 + (i % 5) for i in range(KEEP)]
    clock = Clock()
    session = await _session(COMMISSAR_EXECUTED, NightPacing({COMMISSAR: lengths}), 5, clock)
    clock.now += 3.0
    timers = session.timer_state()
    assert timers["left"] is not None and timers["left"] > 10
    await session.close()
    clock.now += 20.0  # the bot is down
    resumed = GameSession(
        game_id=5,
        ruleset=load_ruleset("classic"),
        seats=session.seats,
        roles=SEATS,
        seed=5,
        listener=Quiet(),
        clock=clock,
        commands=session.log,
        pacing=NightPacing({COMMISSAR: lengths}),
    )
    assert resumed.serial == timers["serial"]
    resumed.restore_clock(timers)
    resumed.arm()
    assert resumed.timer_state()["left"] == timers["left"]
    await resumed.close()
