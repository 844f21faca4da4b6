"""Engine events → text: the host's public lines (the text mirror of what is spoken) and private
messages, with players' names filled in, in the game's language (the host's phrases in it, the roles
named in it: the engine gives the rulebook's Russian names, translated here by the role's id)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from audio import phrases
from engine.demo import describe as describe_in_russian
from engine.events import Event
from mafiabot.game.describe import describe, side_name
from mafiabot.i18n import DEFAULT, preset_title, role_about, role_display

log = logging.getLogger(__name__)

# Events every player must see in the text channel even without a host phrase (votes, nominations…).
_PLAIN_PUBLIC = {"nominated", "voted", "tie", "no_elimination", "passed", "proposal", "foul", "claim"}


# Speeches whose start only says whose turn it is (issue 18): the host says it and the panel shows it
# (panel.status_line: the speaker, the kind of speech and its countdown), so the table posts no line for
# it, nor for «пас» (city's «Пас. Спасибо.»). A line posted at every hand-over moved the panel under it
# (a message create and a delete beside the edit): half of a click's requests. A night victim's words stay
# a line (city's tells him he may name his role), and so does a speech lost to fouls (seconds 0).
_TURN_ROUNDS = frozenset({"intro", "day", "last_word", "tie_word", "farewell"})


def announces_turn_only(event: Event) -> bool:
    """The event only hands the floor over: spoken, shown on the panel, not posted as a line."""
    if event.type == "passed":
        return True
    return (
        event.type == "speech"
        and event.data.get("purpose") in _TURN_ROUNDS
        and bool(event.data.get("seconds"))
    )


@dataclass(frozen=True)
class Line:
    text: str
    phrase: str | None  # spoken when not None and public
    params: dict[str, Any]


def fill_params(params: Mapping[str, Any], name_of: Callable[[int], str]) -> dict[str, Any]:
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


def in_language(params: dict[str, Any], ruleset: Any, language: str) -> dict[str, Any]:
    """The params of a host phrase in ``language``: a role, the rules' title, the winning teams and a
    team's members named in it (the engine passes the rulebook's Russian names)."""
    if language == DEFAULT:
        return params
    out = dict(params)
    by_name = {r.display: role_id for role_id, r in ruleset.roles.items()}

    def role(value: Any) -> Any:
        found = by_name.get(value) if isinstance(value, str) else None
        return role_display(language, ruleset, found) if found else value

    if "role" in out:
        out["role"] = role(out["role"])
        if "role_description" in out and isinstance(params["role"], str) and params["role"] in by_name:
            out["role_description"] = role_about(language, ruleset, by_name[params["role"]])
    if "preset" in out:
        out["preset"] = preset_title(language, ruleset)
    for key in ("roles_list", "members"):
        if isinstance(out.get(key), list):
            out[key] = [
                {**row, "role": role_display(language, ruleset, row["role_id"])}
                if isinstance(row, dict) and row.get("role_id") in ruleset.roles
                else {**row, "role": role(row["role"])}
                if isinstance(row, dict) and "role" in row
                else row
                for row in out[key]
            ]
    return out


def render(
    event: Event, name_of: Callable[[int], str], ruleset: Any = None, language: str = DEFAULT
) -> Line | None:
    """The line for an event in ``language``, or None if nobody needs to read it (without ``ruleset``:
    Russian, the engine's own words)."""
    params = fill_params(event.params, name_of)
    if ruleset is not None:
        params = in_language(params, ruleset, language)
        if language != DEFAULT and event.type == "victory_awarded":  # (the rulebook's side names)
            params["teams"] = ", ".join(side_name(str(w), ruleset, language) for w in event.data["winners"])
    else:
        language = DEFAULT
    if event.phrase:
        try:
            said = phrases.render(event.phrase, params, numbers="digits", language=language)
            return Line(said, event.phrase, params)
        except phrases.PhraseError:
            log.warning("Phrase %s could not be rendered with %s", event.phrase, sorted(params))
    names = {seat: name_of(seat) for seat in _seats_in(event)}
    text = describe_in_russian(event, names) if ruleset is None else describe(event, names, ruleset, language)
    if text is None:
        return None
    if event.audience.kind == "public" and event.type in ("night_step", "action", "check"):
        return None  # transcript wording for these is for the demo's reader, not for the table
    return Line(text.strip(), None, params)


def _seats_in(event: Event) -> list[int]:
    seats = [v for k, v in event.data.items() if k in ("seat", "target", "candidate") and isinstance(v, int)]
    return seats
