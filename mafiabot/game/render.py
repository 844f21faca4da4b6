"""Engine events → text: the host's public lines (the text mirror of what is spoken) and private
messages, with players' names filled in."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from audio import phrases
from engine.demo import describe
from engine.events import Event

log = logging.getLogger(__name__)

# Events every player must see in the text channel even without a host phrase (votes, nominations…).
_PLAIN_PUBLIC = {"nominated", "voted", "tie", "no_elimination", "passed", "proposal", "foul", "claim"}


@dataclass(frozen=True)
class Line:
    text: str
    phrase: str | None  # spoken when not None and public
    params: dict[str, Any]


def fill_params(params: dict[str, Any], name_of: Callable[[int], str]) -> dict[str, Any]:
    """Add what only the bot knows: players' names for seats, in every placeholder that needs them."""
    out = dict(params)
    seat = out.get("seat")
    if isinstance(seat, int) and "name" not in out:
        out["name"] = name_of(seat)
    if "roles_list" in out:
        out["roles_list"] = [
            {"seat": r["seat"], "name": name_of(r["seat"]), "role": r["role"]} for r in out["roles_list"]
        ]
    if "seats_list" in out:
        out["seats_list"] = [{"seat": s, "name": name_of(s)} for s in out["seats_list"]]
    return out


def render(event: Event, name_of: Callable[[int], str]) -> Line | None:
    """The line for an event, or None if nobody needs to read it."""
    params = fill_params(event.params, name_of)
    if event.phrase:
        try:
            return Line(phrases.render(event.phrase, params, numbers="digits"), event.phrase, params)
        except phrases.PhraseError:
            log.warning("Phrase %s could not be rendered with %s", event.phrase, sorted(params))
    names = {seat: name_of(seat) for seat in _seats_in(event)}
    text = describe(event, names)
    if text is None:
        return None
    if event.audience.kind == "public" and event.type in ("night_step", "action", "check"):
        return None  # transcript wording for these is for the demo's reader, not for the table
    return Line(text.strip(), None, params)


def _seats_in(event: Event) -> list[int]:
    seats = [v for k, v in event.data.items() if k in ("seat", "target", "candidate") and isinstance(v, int)]
    return seats
