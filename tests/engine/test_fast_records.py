"""The engine's hot records (Step, Event, Audience) have hand-written constructors for speed: Step's and
Audience's must take the same arguments, with the same defaults, as the dataclass fields they set, and
build records equal to the ones the dataclass machinery would build; an event is a tuple of its fields.
State copies (thaw, evolve) must not share changes with the original, and the rules' working copy
(Draft) never leaves the engine."""

from __future__ import annotations

import copy
import inspect
import pickle
from dataclasses import MISSING, fields
from typing import Any

import pytest

from engine import load_ruleset, new_game, rng
from engine.events import EVENT_FIELDS, EVERYONE, NO_PARAMS, Audience, Event, event_of
from engine.rng import Rng
from engine.state import EMPTY_LEDGER, NightLedger, Step, evolve, put, thaw


@pytest.mark.parametrize("cls", [Step, Audience])
def test_constructor_matches_fields(cls: type) -> None:
    params = list(inspect.signature(cls.__init__).parameters.values())[1:]
    assert [p.name for p in params] == [f.name for f in fields(cls)]
    for p, f in zip(params, fields(cls), strict=True):
        if f.default is not MISSING:
            assert p.default == f.default, f.name
        elif f.default_factory is not MISSING:
            # A mutable default (a dict) is made fresh for each record: None stands for it.
            assert p.default is None, f.name
        else:
            assert p.default is inspect.Parameter.empty, f.name


def test_event_is_its_five_fields() -> None:
    """An event is a tuple of its fields in EVENT_FIELDS's order, built by position or keyword alike, with
    the defaults of the old record (everyone, no data, no phrase, no params), and read by name."""
    params = list(inspect.signature(Event.__new__).parameters.values())[1:]
    assert tuple(p.name for p in params) == EVENT_FIELDS
    assert [p.default for p in params][1:] == [EVERYONE, None, None, None]
    audience = Audience("seats", (1, 2))
    event = Event("x", audience, {"a": 1}, "p", {"b": 2})
    assert event == Event(type="x", audience=audience, data={"a": 1}, phrase="p", params={"b": 2})
    assert tuple(event) == ("x", audience, {"a": 1}, "p", {"b": 2})
    assert [getattr(event, name) for name in EVENT_FIELDS] == list(event)
    bare = Event("y")
    assert (bare.audience, bare.data, bare.phrase, dict(bare.params)) == (EVERYONE, {}, None, {})
    assert bare == Event("y", EVERYONE, {}, None, {})  # the shared empty params equal a fresh dictionary
    assert copy.deepcopy(event) == event and pickle.loads(pickle.dumps(event)) == event
    built = event_of(("x", audience, {"a": 1}, "p", {"b": 2}))  # the rules' busiest events, built in C
    assert type(built) is Event and built == event and built.params == {"b": 2}
    shown = f"Event(type='y', audience={EVERYONE!r}, data={{}}, phrase=None, params={NO_PARAMS!r})"
    assert repr(bare) == shown


def test_records_built_by_keyword_and_position_agree() -> None:
    step = Step("speech", 3, (4, 5), (), "day", "", 60, 0.0, (7,))
    assert step == Step(kind="speech", seat=3, queue=(4, 5), round="day", seconds=60, permitted=(7,))
    assert step.__dict__ == {f.name: getattr(step, f.name) for f in fields(Step)}
    assert Step("night") == Step(kind="night", seat=0, queue=(), candidates=(), round="", night_step="")
    event = Event("x", Audience("seats", (1, 2)), {"a": 1}, "p", {"b": 2})
    assert (event.type, event.audience.seats, event.data, event.phrase, event.params) == (
        "x",
        (1, 2),
        {"a": 1},
        "p",
        {"b": 2},
    )
    first, second = Event("y"), Event("y")
    assert first == second and first.data is not second.data
    with pytest.raises(TypeError):  # the params they share cannot be changed through either
        first.params["seat"] = 1  # type: ignore[index]


def test_records_stay_frozen() -> None:
    for record, name in (
        (Step("speech"), "seat"),
        (Event("x"), "type"),
        (Event("x"), "params"),
        (Audience(), "kind"),
    ):
        with pytest.raises(AttributeError):
            setattr(record, name, 1)


def test_copies_do_not_share_changes() -> None:
    state, _ = new_game(load_ruleset("classic"), ["mafioso", "civilian", "civilian", "commissar"], seed=1)
    copy = thaw(state)
    put(copy, day=99, step=evolve(state.step, seat=4))
    assert state.day != 99 and state.step.seat != 4
    assert copy.day == 99 and copy.step.seat == 4
    ledger = evolve(EMPTY_LEDGER, blocked=frozenset({1}))
    assert NightLedger() == EMPTY_LEDGER and ledger.blocked == {1}


def test_rng_wrapper_draws_as_the_pure_functions() -> None:
    """The simulator's Rng writes SplitMix64 out inline; it must draw exactly what engine.rng draws."""
    for seed in range(50):
        wrapper, state = Rng(seed), rng.seed_state(seed)
        items = list(range(seed % 11 + 1))
        value, state = rng.next_u64(state)
        assert wrapper.random() == value / float(1 << 64)
        index, state = rng.below(state, 7)
        assert wrapper.below(7) == index
        item, state = rng.choice(state, items)
        assert wrapper.choice(items) == item
        order, state = rng.shuffled(state, items)
        assert wrapper.shuffled(items) == order
        assert wrapper.state == state


def test_rng_wrapper_across_batches() -> None:
    """The wrapper draws its values in batches: long runs of draws cross several batch boundaries."""
    for seed in (0, 7, 2**70):
        wrapper, state = Rng(seed), rng.seed_state(seed)
        for i in range(150):
            value, state = rng.next_u64(state)
            if i % 3 == 0:
                assert wrapper.random() == value / float(1 << 64)
            else:
                assert wrapper.below(13) == value % 13
            assert wrapper.state == state
        order, state = rng.shuffled(state, list(range(40)))
        assert wrapper.shuffled(list(range(40))) == order
        assert wrapper.state == state


def test_a_shuffle_of_only_its_own_values_is_the_pure_shuffle() -> None:
    """rng.shuffled_from draws the values of its shuffle and no more (first_values: the wrapper's batch with
    as many lanes as values): the same order as the pure shuffle and the wrapper's, at every length."""
    for seed in (0, 1, 5, 0x5EA7, 2**63 + 11):
        for n in (0, 1, 2, 3, 12, 32, 33, 34, 70):
            items = list(range(n))
            order, _ = rng.shuffled(rng.seed_state(seed), items)
            assert rng.shuffled_from(seed, items) == order == Rng(seed).shuffled(items)
        state = rng.seed_state(seed)
        values = []
        for _ in range(40):
            value, state = rng.next_u64(state)
            values.append(value)
        assert list(rng.first_values(rng.seed_state(seed), 40)) == values


@pytest.mark.parametrize(("preset", "players"), [("simple", 12), ("city", 8), ("city", 10), ("classic", 10)])
def test_a_deal_from_the_kept_deck_is_the_deal_of_the_composition(preset: str, players: int) -> None:
    """deal keeps each table size's deck with the ruleset (game.deal): every deal, the first and the later
    ones, is the composition's deck in role order shuffled by the seed, as before the deck was kept."""
    from engine.composition import composition
    from engine.game import deal

    ruleset = load_ruleset(preset)
    deck = [role for role, n in sorted(composition(ruleset, players).items()) for _ in range(n)]
    for seed in range(30):
        assert deal(ruleset, players, seed) == Rng(seed ^ 0x5EA7).shuffled(deck)[:players]


def test_fresh_state_matches_the_dataclass() -> None:
    """new_game builds its first state as one dictionary (fresh_state): the same record, fields in order."""
    from engine.state import GameState, freeze, fresh_state

    given = {
        "ruleset": load_ruleset("classic"),
        "seed": 3,
        "roles": ("mafioso", "civilian", "civilian", "commissar"),
        "alive": frozenset({1, 2, 3, 4}),
        "phase": "setup",
        "day": 0,
        "night": 0,
        "intro": False,
        "step": Step("setup"),
        "rng": rng.seed_state(3),
        "immune": frozenset({2}),
    }
    built, fresh = GameState(**given), freeze(fresh_state(**given))
    assert fresh == built and list(fresh.__dict__.items()) == list(built.__dict__.items())
    with pytest.raises(TypeError):
        fresh_state(**{k: v for k, v in given.items() if k != "seed"})
    with pytest.raises(TypeError):
        fresh_state(**given, colour="red")


def test_draft_declares_every_field_of_the_state() -> None:
    """The rules write a Draft's attributes; its annotations must be GameState's fields, in order, with
    the same types (they are repeated there for the type checker)."""
    from engine.state import Draft, GameState

    assert Draft.__annotations__ == {f.name: f.type for f in fields(GameState)}


def test_ledger_draft_declares_every_field_of_the_ledger() -> None:
    """The rules write a LedgerDraft's attributes where the draft owns its ledger; its annotations must be
    NightLedger's fields, in order, with the same types (repeated there for the type checker)."""
    from engine.state import LedgerDraft, NightLedger

    assert LedgerDraft.__annotations__ == {f.name: f.type for f in fields(NightLedger)}


def test_apply_hands_out_frozen_states_only() -> None:
    """apply and new_game change a private Draft and hand out a frozen GameState: a caller cannot
    change it, and the state it was made from is unchanged."""
    from engine import apply
    from engine.commands import Advance
    from engine.state import Draft, GameState

    state, _ = new_game(load_ruleset("classic"), ["mafioso", "civilian", "civilian", "commissar"], seed=1)
    before = dict(state.__dict__)
    after, _ = apply(state, Advance())
    for made in (state, after):
        assert type(made) is GameState and not isinstance(made, Draft)
        with pytest.raises(AttributeError):
            made.day = 5  # type: ignore[misc]
    assert state.__dict__ == before and after.__dict__ is not state.__dict__
    draft = thaw(after)
    draft.day = 7
    assert after.day != 7


def test_records_keep_their_fields_off_the_class() -> None:
    """Reading a field stays on the interpreter's fast path: no class attribute shadows a field (the
    defaults live in the fields), and a Draft sets its attributes with object's own methods."""
    from engine.state import Draft, GameState

    for cls in (GameState, Step, NightLedger):
        assert not [f.name for f in fields(cls) if f.name in cls.__dict__], cls
    assert Draft.__setattr__ is object.__setattr__ and Draft.__delattr__ is object.__delattr__
    assert NightLedger() == EMPTY_LEDGER and Step("x").queue == ()


def test_the_busiest_events_are_made_once() -> None:
    """events.interned: a speech's end, a vote, a speech, a night step's call and end, a count are each
    made once for their values and handed out again in later games, the same object; each still equals
    the event built afresh from its fields."""
    from engine.simulate import play_random_game

    ruleset = load_ruleset("simple")
    kinds = ("speech_ended", "voted", "speech", "night_step", "night_step_ended", "vote_count", "nominated")
    made: dict[tuple[object, ...], Event] = {}
    again = 0
    for seed in (1, 2):
        for event in play_random_game(ruleset, 12, seed).events:
            if event.type not in kinds:
                continue
            afresh = Event(event.type, event.audience, dict(event.data), event.phrase, dict(event.params))
            assert event == afresh
            fields = (event.type, event.audience, *event.data.items(), event.phrase, *event.params.items())
            first = made.setdefault(fields, event)
            assert first is event, event
            again += seed == 2 and first is not afresh
    assert again > 100


def test_a_line_is_kept_in_the_presets_own_table() -> None:
    """announce.line finds a host's line by its key in the preset's table (Ruleset.lines): the event say
    makes for it (the same object), equal to one built afresh; nothing where the preset has no phrase."""
    from engine.announce import line, say
    from engine.state import thaw

    for preset in ("simple", "city", "classic"):
        ruleset = load_ruleset(preset)
        state, _ = new_game(ruleset, ["civilian"] * 10, 0)
        for key in ("vote_count", "discussion_stop", "revote", "no_such_line"):
            out: list[Event] = []
            line(thaw(state), out, key)
            line(thaw(state), out, key)
            said: list[Event] = []
            say(thaw(state), said, key)
            phrase = ruleset.phrases.get(key)
            if phrase is None:
                assert out == said == []
                continue
            assert out[0] is out[1] is said[0]
            assert out[0] == Event("announce", EVERYONE, {"key": key}, phrase)


def test_an_interned_table_is_bounded() -> None:
    from engine.events import interned

    table: dict[int, Event] = {}
    for n in range(5000):
        assert interned(table, n, ("x", EVERYONE, {"n": n}, None, NO_PARAMS)) == Event("x", data={"n": n})
    assert len(table) <= 4096


def test_a_table_of_tables_hands_out_one_event_per_path_and_key_and_is_bounded() -> None:
    """events.interned_in: the event kept at table[a][b][key] (read there by subscripts), the same object
    for the same path and key, another for another; the outer table is emptied past the bound as well."""
    from engine.events import interned_in

    table: dict[Any, Any] = {}
    first = interned_in(table, ("p", 3), 5, ("x", EVERYONE, {"n": 5}, "p", NO_PARAMS))
    assert table["p"][3][5] is first == Event("x", EVERYONE, {"n": 5}, "p")
    assert interned_in(table, ("p", 4), 5, ("x", EVERYONE, {"n": 6}, "p", NO_PARAMS)) is table["p"][4][5]
    assert table["p"][3][5] is first and len(table["p"]) == 2
    for n in range(5000):
        interned_in(table, (n,), 0, ("x", EVERYONE, {"n": n}, None, NO_PARAMS))
    assert len(table) <= 4096


def test_the_written_out_changes_equal_put_step_and_put_ledger() -> None:
    """state.py's changes without keywords make the records put_step, put_ledger and Step(...) make, with
    the fields in the same order, and leave the record they started from as it was."""
    from engine.state import (
        clear_choices,
        put_ledger,
        put_ledger_field,
        put_next_in_queue,
        put_next_speaker,
        put_step,
        step_of,
    )

    state, _ = new_game(load_ruleset("classic"), ["mafioso", "civilian", "civilian", "commissar"], seed=1)
    a, b = thaw(state), thaw(state)
    for s in (a, b):
        s.step = Step("speech", 3, (4, 5, 6), (1,), "day", "", 60, 2.5, (7,))
        put_ledger(
            s, actions=((1, "kill", (2,)),), skipped=frozenset({3}), proposals=((4, 5),), team_target=6
        )
    first_step, first_ledger = a.step, state.ledger
    put_next_in_queue(a)
    put_step(b, seat=4, queue=(5, 6))
    assert list(a.step.__dict__.items()) == list(b.step.__dict__.items())
    put_next_speaker(a, (5, 6), 30)
    put_step(b, seat=5, queue=(6,), permitted=(), seconds=30)
    assert list(a.step.__dict__.items()) == list(b.step.__dict__.items())
    put_ledger_field(a, "chosen", ((1, "x", (2,)),))
    put_ledger(b, chosen=((1, "x", (2,)),))
    assert list(a.ledger.__dict__.items()) == list(b.ledger.__dict__.items())
    clear_choices(a)
    put_ledger(b, actions=(), skipped=frozenset(), proposals=(), team_target=0)
    assert list(a.ledger.__dict__.items()) == list(b.ledger.__dict__.items())
    assert first_step.seat == 3 and first_step.queue == (4, 5, 6) and first_step.permitted == (7,)
    assert first_ledger is EMPTY_LEDGER and NightLedger() == EMPTY_LEDGER  # the frozen ledger is untouched
    built = step_of("vote", 3, (4,), (3, 4), "main", 30)
    assert type(built) is Step
    assert list(built.__dict__.items()) == list(
        Step("vote", seat=3, queue=(4,), candidates=(3, 4), round="main", seconds=30).__dict__.items()
    )


def test_a_drafts_own_ledger_is_frozen_with_it() -> None:
    """The ledger a draft changes in place (LedgerDraft) is its own: the state it was thawed from keeps its
    ledger, later changes of the draft write the same ledger, and freeze hands out a NightLedger."""
    from engine.state import LedgerDraft, freeze, put_ledger, put_ledger_field

    state, _ = new_game(load_ruleset("classic"), ["mafioso", "civilian", "civilian", "commissar"], seed=1)
    draft = thaw(state)
    put_ledger_field(draft, "team_target", 2)
    own = draft.ledger
    assert type(own) is LedgerDraft and state.ledger is EMPTY_LEDGER and EMPTY_LEDGER.team_target == 0
    put_ledger(draft, blocked=frozenset({3}))
    assert draft.ledger is own and (own.team_target, own.blocked) == (2, {3})
    done = freeze(draft)
    assert type(done.ledger) is NightLedger and done.ledger == evolve(
        EMPTY_LEDGER, team_target=2, blocked={3}
    )
    again = thaw(done)
    put_ledger_field(again, "team_target", 4)
    assert done.ledger.team_target == 2 and again.ledger is not done.ledger
    with pytest.raises(AttributeError):
        done.ledger.team_target = 5  # type: ignore[misc]
