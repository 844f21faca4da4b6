"""Driving a `hobbyworld` table in scenario tests: its day is a discussion with nominations, then the
vote (RULESETS.md 4.7); every game starts with the intro night and a day that must lynch someone."""

from __future__ import annotations

from collections.abc import Sequence

from helpers import KEY_FIELDS, Table, table

from engine import Act, Command, Event, Nominate, Vote


def hw(roles: Sequence[str], *options: str, seed: int = 1) -> Table:
    return table("hobbyworld", roles, *options, seed=seed)


def day(
    t: Table,
    nominations: Sequence[tuple[int, int]] = (),
    votes: Sequence[tuple[int, Sequence[int]]] = (),
) -> list[Event]:
    """From here to the end of the first ballot of the next (or current) day: the nominations made in
    the discussion, then one ballot (``votes``: ``(candidate, voters)``)."""
    new = t.until(lambda s: s.step.kind == "nominations" or s.over)
    if t.s.over:
        return new
    new.extend(t.send(*[Nominate(seat=a, target=b) for a, b in nominations]))
    new.extend(t.advance())
    if t.s.step.kind == "vote":
        new.extend(t.ballot(votes))
    return new


def to_ballot(t: Table, nominations: Sequence[tuple[int, int]] = ()) -> list[Event]:
    """Play to the opening of the next day's vote, after the given nominations."""
    new = t.until(lambda s: s.step.kind == "nominations" or s.over)
    new.extend(t.send(*[Nominate(seat=a, target=b) for a, b in nominations]))
    new.extend(t.advance())
    return new


def lynch(t: Table, seat: int, by: int | None = None) -> list[Event]:
    """A day whose only candidate is ``seat``: the book's «один (и только один) игрок» with no hands
    raised is still the one with the most votes."""
    nominator = by if by is not None else next(x for x in t.s.living() if x != seat)
    new = day(t, [(nominator, seat)])
    if t.s.step.kind == "acquittal":
        new.extend(t.advance())
    return new


def votes(t: Table, *ballot: tuple[int, Sequence[int]]) -> list[Event]:
    return t.ballot(ballot)


def acquit(judge: int, condemned: int) -> Act:
    return Act(seat=judge, targets=(condemned,))


def vote(seat: int, candidate: int) -> Vote:
    return Vote(seat=seat, candidate=candidate)


KEY_FIELDS.update(
    {
        "jailed": ("seat",),
        "released": ("seats",),
        "vote_denied": ("seat",),
        "vote_linked": ("seat",),
        "acquitted": ("seat",),
        "acquittal_offer": ("seat", "target"),
        "priest_revealed": ("seat", "priest"),
        "extra_shot": ("team",),
        "lot": ("seats", "seat"),
        "in_jail": ("seats",),
    }
)


def next_night(t: Table, spare: int, *commands: Command) -> list[Event]:
    """Lynch ``spare`` on the day in between (so that no lot picks a victim), then play the night."""
    lynch(t, spare)
    return t.night(*commands)
