"""An event without a host phrase, as the table reads it, in the game's language: a role by its name
(the rulebook's in Russian), a team, a side and a check's answer in words (mafiabot/locales/*/events.ftl).
The engine's own Russian transcript (engine/demo.py) is for the terminal; the bot says it here."""

from __future__ import annotations

from typing import Any

from engine.events import Event
from mafiabot.i18n import has, role_display, text


def describe(ev: Event, names: dict[int, str], ruleset: Any, language: str) -> str | None:
    """A line for an event, or None for events a reader does not need."""
    d, t, lang = ev.data, ev.type, language

    def who(seat: int) -> str:
        return text(lang, "event-who", seat=seat, name=names.get(seat, "")).rstrip()

    def role(value: str) -> str:
        return role_display(lang, ruleset, value) if value in ruleset.roles else value

    if t == "role_dealt":
        line = text(lang, "event-role-dealt", role=role(str(d["role"])))
        return text(lang, "event-private", who=who(d["seat"]), line=line)
    if t == "night_step":
        return text(lang, "event-night-step", who=_step(str(d["step"]), ruleset, lang))
    if t == "check":
        line = text(lang, "event-check", target=d["target"], result=_check(d["result"], ruleset, lang))
        return text(lang, "event-private", who=who(d["seat"]), line=line)
    if t == "action" and d.get("targets"):
        team = str(d.get("team", ""))
        actor = text(lang, "event-team", team=team_name(team, lang)) if team else who(d["seat"])
        return text(lang, "event-host", line=text(lang, "event-action", actor=actor, target=d["targets"][0]))
    if t == "killed":
        return text(lang, "event-killed", who=who(d["seat"]))
    if t == "speech":
        return text(lang, "event-speech", who=who(d["seat"]))
    if t == "nominated":
        return text(lang, "event-nominated", seat=d["seat"], target=d["target"])
    if t == "vote_count":
        return text(lang, "event-vote-count", seat=d["candidate"], count=d["count"])
    if t == "executed":
        if "role" in d or "role_name" in d:
            shown = role(str(d["role"])) if "role" in d else str(d["role_name"])
            return text(lang, "event-executed-role", who=who(d["seat"]), role=shown)
        return text(lang, "event-executed", who=who(d["seat"]))
    if t == "best_move":  # FIIM D-FI13: shown at the start of the victim's last word
        seats = ", ".join(text(lang, "event-seat", seat=x) for x in d["seats"])
        return text(lang, "event-best-move", who=who(d["seat"]), seats=seats)
    if t == "on_record":  # FIIM D-FI15: the colours the judge writes down
        pairs = ", ".join(
            f"{text(lang, 'event-seat', seat=x)} — {text(lang, f'event-colour-{c}')}"
            for x, c in zip(d["targets"], d["colours"], strict=True)
        )
        return text(lang, "event-on-record", who=who(d["seat"]), pairs=pairs)
    if t == "no_elimination":
        return text(lang, "event-no-elimination")
    if t == "removed":
        return text(lang, "event-removed", who=who(d["seat"]))
    if t == "foul":
        return text(lang, "event-foul", seat=d["seat"], count=d["count"])
    if t == "tie":
        return text(lang, "event-tie", seats=", ".join(map(str, d["seats"])))
    if t == "maniac_answer":
        return text(lang, "event-maniac-town" if d.get("yes") else "event-maniac-silent")
    if t == "result_decided" or (t == "game_over" and not d.get("announced")):
        if d.get("draw"):
            return text(lang, "event-draw")
        winners = ", ".join(side_name(str(w), ruleset, lang) for w in d["winners"])
        return text(lang, "event-winners", winners=winners)
    if t == "roles_revealed":
        rows = "; ".join(f"{who(r['seat'])} — {role(str(r.get('role_id', r['role'])))}" for r in d["roles"])
        return text(lang, "event-roles", roles=rows)
    return None


def team_name(team: str, language: str) -> str:
    key = f"team-name-{team}"
    return text(language, key) if has(language, key) else team


def side_name(side: str, ruleset: Any, language: str) -> str:
    """A side in words; a solo side by its roles' names («Маньяк»), as the host would say it."""
    if side == "solo":
        solos = sorted(
            {role_display(language, ruleset, r) for r, d in ruleset.roles.items() if d.side == "solo"}
        )
        if solos:
            return ", ".join(solos)
    key = f"side-{side}"
    return text(language, key) if has(language, key) else side


def _step(step_id: str, ruleset: Any, language: str) -> str:
    for step in (*ruleset.intro_night, *ruleset.night_steps):
        if step.id == step_id:
            if step.team:
                who = team_name(step.team, language)
            elif step.role in ruleset.roles:
                who = role_display(language, ruleset, step.role)
            else:
                who = step.role
            return text(language, "event-night-meet", who=who) if step.kind == "meet" else who
    return step_id


def _check(result: object, ruleset: Any, language: str) -> str:
    if isinstance(result, bool):
        # A yes/no check asks about one role (the city don looks for the sheriff): the answer names it.
        wanted = {
            str(ab.params["role"])
            for r in ruleset.roles.values()
            for ab in r.abilities
            if ab.kind == "check_is_role" and "role" in ab.params
        }
        if len(wanted) == 1 and (role := wanted.pop()) in ruleset.roles:
            name = role_display(language, ruleset, role)
            return text(language, "event-check-is" if result else "event-check-is-not", role=name)
        return text(language, "event-check-yes" if result else "event-check-no")
    value = str(result)
    key = f"event-check-{value}"
    if has(language, key):
        return text(language, key)
    return role_display(language, ruleset, value) if value in ruleset.roles else value
