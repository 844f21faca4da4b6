"""An offline demo: one game of sensible simulated players (engine/habits.py), told as a readable Russian
transcript with the players' names and the rules' own words: a role by its name in the rulebook
(«Агент»), a team or a side by its Russian name («мафия», «мирные жители»), a check by what the host
shows («мафия», «не мафия», «да: Шериф»), never a raw id.

``render`` may turn an event's host phrase into text (the bot passes the audio package's phrase
catalogue); without it the transcript is composed here from the events themselves. The bot itself says
these things through its catalogues (mafiabot/locales), in the server's language; this module is the
engine's own Russian, for a terminal without the bot.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import Any

from engine.events import Event
from engine.habits import play_sensible_game
from engine.rules import Ruleset, load_ruleset

Render = Callable[[str, dict[str, Any]], "str | None"]

_CHECK = {
    "mafia": "мафия",
    "not_mafia": "не мафия",
    "honest": "честный",
    "killed": "убит",
    "same": "одна сторона",
    "different": "разные стороны",
}
TEAMS = {"mafia": "мафия", "yakuza": "якудза", "hunters": "охотники"}
SIDES = {
    "town": "мирные жители",
    "mafia": "мафия",
    "yakuza": "якудза",
    "vampires": "вампиры",
    "hunters": "охотники",
    "solo": "одиночка",
}


def side_name(side: str, ruleset: Ruleset | None) -> str:
    """A side in words; a solo side by its roles' names («Маньяк»), as the host would say it."""
    if side == "solo" and ruleset is not None:
        solos = sorted({r.display for r in ruleset.roles.values() if r.side == "solo"})
        if solos:
            return ", ".join(solos)
    return SIDES.get(side, side)


def role_name(role: str, ruleset: Ruleset | None) -> str:
    """A role id in the rulebook's words (a role's display name passes through as it is)."""
    if ruleset is not None and role in ruleset.roles:
        return ruleset.roles[role].display
    return role


def step_name(step_id: str, ruleset: Ruleset | None) -> str:
    """Who a night step wakes: the role's name or the team's, not the step's id."""
    if ruleset is not None:
        for step in (*ruleset.intro_night, *ruleset.night_steps):
            if step.id == step_id:
                who = TEAMS.get(step.team, step.team) if step.team else role_name(step.role, ruleset)
                return f"{who} (знакомство)" if step.kind == "meet" else who
    return step_id


def check_result(result: object, ruleset: Ruleset | None) -> str:
    """What a check showed: a plate («мафия»), a role card («Шериф») or a yes/no answer."""
    if isinstance(result, bool):
        # A yes/no check asks about one role (the city don looks for the sheriff): the answer names it.
        wanted = {
            str(ab.params["role"])
            for role in (ruleset.roles.values() if ruleset is not None else ())
            for ab in role.abilities
            if ab.kind == "check_is_role" and "role" in ab.params
        }
        if len(wanted) == 1:
            role = role_name(wanted.pop(), ruleset)
            return f"да, это {role}" if result else f"нет, не {role}"
        return "да" if result else "нет"
    text = str(result)
    return _CHECK.get(text) or role_name(text, ruleset)


def describe(ev: Event, names: dict[int, str], ruleset: Ruleset | None = None) -> str | None:
    """A Russian line for an event, or None for events a reader does not need; with ``ruleset``, roles,
    steps and sides are named in its words."""
    d = ev.data

    def who(seat: int) -> str:
        return f"№{seat} {names.get(seat, '')}".rstrip()

    t = ev.type
    if t == "role_dealt":
        return f"  [лично {who(d['seat'])}] ваша роль: {ev.params.get('role')}"
    if t == "night_step":
        return f"  Ночью просыпается: {step_name(str(d['step']), ruleset)}"
    if t == "check":
        result = check_result(d["result"], ruleset)
        return f"  [лично {who(d['seat'])}] проверка игрока №{d['target']}: {result}"
    if t == "action":
        team = str(d.get("team", ""))
        actor = f"команда «{TEAMS.get(team, team)}»" if team else who(d["seat"])
        return f"  [ведущий] {actor} выбирает игрока №{d['targets'][0]}"
    if t == "killed":
        return f"Этой ночью убит игрок {who(d['seat'])}."
    if t == "speech":
        return f"Слово игроку {who(d['seat'])}."
    if t == "nominated":
        return f"Игрок №{d['seat']} выставляет игрока №{d['target']}."
    if t == "vote_count":
        return f"  За игрока №{d['candidate']}: голосов {d['count']}."
    if t == "executed":
        role = f" Роль: {d['role_name']}." if "role_name" in d else ""
        return f"Игрок {who(d['seat'])} покидает игру по итогам голосования.{role}"
    if t == "best_move":  # FIIM D-FI13: shown at the start of the victim's last word
        return f"Лучший ход игрока {who(d['seat'])}: " + ", ".join(f"№{x}" for x in d["seats"]) + "."
    if t == "on_record":  # FIIM D-FI15: the colours the judge writes down
        colours = {"red": "красный", "black": "чёрный"}
        pairs = ", ".join(f"№{x} — {colours[c]}" for x, c in zip(d["targets"], d["colours"], strict=True))
        return f"Под протокол от игрока {who(d['seat'])}: {pairs}."
    if t == "no_elimination":
        return "Сегодня никто не покидает игру."
    if t == "removed":
        return f"Игрок {who(d['seat'])} удалён из-за стола."
    if t == "foul":
        return f"Игроку №{d['seat']} замечание ({d['count']})."
    if t == "tie":
        return f"Голоса разделились поровну: {', '.join(map(str, d['seats']))}."
    if t == "maniac_answer":
        return "Маньяк играет за мирных жителей." if d.get("yes") else "Маньяк промолчал."
    if t == "result_decided" or (t == "game_over" and not d.get("announced")):
        # (an announced end was told when it was decided: result_decided)
        winners = ", ".join(side_name(str(w), ruleset) for w in d["winners"])
        return "Ничья." if d.get("draw") else f"Победа: {winners}."
    if t == "game_over":
        return None
    if t == "roles_revealed":
        return "Роли: " + "; ".join(f"{who(r['seat'])} — {role_name(r['role'], ruleset)}" for r in d["roles"])
    return None


def transcript(ruleset_id: str, players: int, seed: int, render: Render | None = None) -> list[str]:
    ruleset = load_ruleset(ruleset_id)
    game = play_sensible_game(ruleset, players, seed)
    names = {i: n for i, n in enumerate(_NAMES[:players], start=1)}
    lines = [f"Демо-игра «{ruleset.title}»: {players} игроков, сид {seed}.", ""]
    for ev in game.events:
        line = None
        if render is not None and ev.phrase and ev.audience.kind == "public":
            line = render(ev.phrase, {**ev.params, "name": names.get(ev.params.get("seat", 0), "")})
        if line is None:
            line = describe(ev, names, ruleset)
        if ev.type == "announce" and line is None:
            continue
        if line:
            lines.append(line)
    return lines


_NAMES = [
    "Аня",
    "Борис",
    "Вера",
    "Глеб",
    "Даша",
    "Егор",
    "Женя",
    "Зоя",
    "Иван",
    "Катя",
    "Лёва",
    "Маша",
    "Никита",
    "Оля",
    "Паша",
    "Рита",
]


def main(argv: Sequence[str] | None = None, render: Render | None = None) -> int:
    parser = argparse.ArgumentParser(prog="mafiabot demo", description=__doc__)
    parser.add_argument("--ruleset", default="classic")
    parser.add_argument("--players", type=int, default=10)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(list(argv or []))
    for line in transcript(args.ruleset, args.players, args.seed, render):
        print(line)
    return 0
