"""What every random legal game must hold, shared by the property tests of all presets.

`sound_steps` checks the game as a whole (it ends with exactly one `game_over`; replaying its command log
gives the same state and events) and then walks it again command by command, checking each step (no dead
or jailed player acts, only a woken actor does, a voter may vote, applying a command leaves the old state
as it was, no seat's view holds a role the rules did not show it). It yields each step for the preset's
own checks.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, fields

import engine
from engine import queries
from engine.commands import Act, Command, Propose, Vote
from engine.simulate import SimulatedGame
from engine.view import events_for, view_for


@dataclass
class StepPlayed:
    before: engine.GameState
    command: Command
    after: engine.GameState
    events: list[engine.Event]


def sound_steps(
    ruleset: engine.Ruleset, seats: Sequence[str], seed: int, game: SimulatedGame
) -> Iterator[StepPlayed]:
    assert game.final.over
    assert sum(1 for e in game.events if e.type == "game_over") == 1
    state, events = engine.replay(ruleset, seats, seed, game.commands)
    assert state == game.final
    assert [e.to_json() for e in events] == [e.to_json() for e in game.events]

    state, _ = engine.new_game(ruleset, seats, seed)
    for command in game.commands:
        if isinstance(command, (Act, Propose)):
            # FIIM's best move (D-FI13) is the one act of a player who already left: the night's victim.
            gone = state.step.kind == "best_move" and command.seat == state.step.seat
            assert (command.seat in state.alive or gone) and command.seat not in state.prisoners()
            assert command.seat in queries.actors(state)
        if isinstance(command, Vote) and state.step.kind == "vote":
            assert command.seat in state.alive
            assert command.seat not in state.no_vote and command.seat not in state.prisoners()
        snapshot = _snapshot(state)
        before = state
        state, new_events = engine.apply(state, command)
        assert _snapshot(before) == snapshot, "applying a command changed the state it was applied to"
        for seat in range(1, len(seats) + 1):
            for other, role in view_for(state, seat)["roles"].items():
                x = int(other)
                assert role == state.role_of(x)
                assert x == seat or x in state.revealed or (seat, x) in state.knowledge
            for ev in events_for(new_events, seat):
                if ev.type in ("role_dealt", "check") and ev.data.get("result") in ruleset.roles:
                    assert ev.audience.includes(seat)
        yield StepPlayed(before, command, state, new_events)
    assert state == game.final


def _snapshot(state: engine.GameState) -> tuple[object, ...]:
    return tuple(getattr(state, f.name) for f in fields(state) if f.name != "ruleset")


def assert_lines_render(events: Iterable[engine.Event]) -> None:
    """Every event that a host line needs carries the data for its placeholders (names filled in as the
    bot fills them)."""
    from audio import phrases

    for ev in events:
        if not ev.phrase:
            continue
        params = dict(ev.params)
        if isinstance(params.get("seat"), int):
            params.setdefault("name", f"Игрок {params['seat']}")
        if "roles_list" in params:
            params["roles_list"] = [{**r, "name": f"Игрок {r['seat']}"} for r in params["roles_list"]]
        text = phrases.render(ev.phrase, params)
        assert text and "{" not in text, (ev.type, ev.phrase, ev.params)
