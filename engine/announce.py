"""Announcements: the host's lines and the events that carry them.

Every step of the engine appends the events it causes to an ``Out`` list; these two helpers build the
most common ones. They know nothing of phases, so every other module of the rules may use them.
"""

from __future__ import annotations

from typing import Any

from engine.events import EVERYONE, Audience, Event, event_of
from engine.state import GameState

Out = list[Event]


def say(s: GameState, out: Out, key: str, audience: Audience = EVERYONE, **params: Any) -> None:
    """A line of the host: an ``announce`` event with the preset's phrase for ``key``, if it has one."""
    phrase = s.ruleset.phrases.get(key)  # Ruleset.phrase, without the call (a line for most commands)
    if phrase is not None:
        out.append(event_of(("announce", audience, {"key": key}, phrase, params)))


def event(out: Out, kind: str, audience: Audience = EVERYONE, phrase: str | None = None, **data: Any) -> None:
    params = dict(data)  # the same fields as placeholders, but the role id
    params.pop("role_id", None)
    out.append(Event(kind, audience, data, phrase, params))
