"""Announcements: the host's lines and the events that carry them.

Every step of the engine appends the events it causes to an ``Out`` list; these two helpers build the
most common ones. They know nothing of phases, so every other module of the rules may use them.
"""

from __future__ import annotations

from typing import Any

from engine.events import EVERYONE, NO_PARAMS, Audience, Event, event_of, interned
from engine.state import GameState

Out = list[Event]
_LINES: dict[tuple[str, str], Event] = {}  # events.interned: a line without placeholders, by (key, phrase)


def say(s: GameState, out: Out, key: str, audience: Audience = EVERYONE, **params: Any) -> None:
    """A line of the host: an ``announce`` event with the preset's phrase for ``key``, if it has one."""
    phrase = s.ruleset.phrases.get(key)  # Ruleset.phrase, without the call (a line for most commands)
    if phrase is None:
        return
    if params or audience is not EVERYONE:
        out.append(event_of(("announce", audience, {"key": key}, phrase, params)))
        return
    line = (key, phrase)
    out.append(
        _LINES.get(line) or interned(_LINES, line, ("announce", EVERYONE, {"key": key}, phrase, NO_PARAMS))
    )


def event(out: Out, kind: str, audience: Audience = EVERYONE, phrase: str | None = None, **data: Any) -> None:
    params = dict(data)  # the same fields as placeholders, but the role id
    params.pop("role_id", None)
    out.append(Event(kind, audience, data, phrase, params))


def line(s: GameState, out: Out, key: str) -> None:
    """``say(s, out, key)``: a line without placeholders, to everyone, without the keywords' dictionary
    every call of say makes, found in the preset's own table by its key (Ruleset.lines)."""
    found = s.ruleset.lines.get(key)
    if found is None:
        found = line_of(s, key)
    if found:
        out.append(found)


def line_of(s: GameState, key: str) -> Event | tuple[()]:
    """The event of line(s, out, key), kept in the preset's table (the one say makes, events.interned), or
    () where the preset has no phrase for ``key``."""
    phrase = s.ruleset.phrases.get(key)
    found: Event | tuple[()] = ()
    if phrase is not None:
        line = (key, phrase)
        found = _LINES.get(line) or interned(
            _LINES, line, ("announce", EVERYONE, {"key": key}, phrase, NO_PARAMS)
        )
    s.ruleset.lines[key] = found
    return found
