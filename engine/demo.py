"""An offline demo: one simulated game, told as a readable Russian transcript.

``render`` may turn an event's host phrase into text (the bot passes the audio package's phrase
catalogue); without it the transcript is composed here from the events themselves.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import Any

from engine.events import Event
from engine.rules import load_ruleset
from engine.simulate import play_random_game

Render = Callable[[str, dict[str, Any]], "str | None"]

_CHECK = {"mafia": "мафия", "not_mafia": "не мафия", "killed": "убит"}


def describe(ev: Event, names: dict[int, str]) -> str | None:
    """A Russian line for an event, or None for events a reader does not need."""
    d = ev.data

    def who(seat: int) -> str:
        return f"№{seat} {names.get(seat, '')}".rstrip()

    t = ev.type
    if t == "role_dealt":
        return f"  [лично {who(d['seat'])}] ваша роль: {ev.params.get('role')}"
    if t == "night_step":
        return f"  Ночью просыпается: {d['step']}"
    if t == "check":
        result = _CHECK.get(str(d["result"]), str(d["result"]))
        return f"  [лично {who(d['seat'])}] проверка игрока №{d['target']}: {result}"
    if t == "action":
        actor = f"команда {d['team']}" if "team" in d else who(d["seat"])
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
    if t == "result_decided":
        return "Ничья." if d.get("draw") else f"Победа: {', '.join(d['winners'])}."
    if t == "game_over":
        if d.get("announced"):
            return None  # told when it was decided (result_decided)
        return "Ничья." if d.get("draw") else f"Победа: {', '.join(d['winners'])}."
    if t == "roles_revealed":
        return "Роли: " + "; ".join(f"№{r['seat']} {r['role']}" for r in d["roles"])
    return None


def transcript(ruleset_id: str, players: int, seed: int, render: Render | None = None) -> list[str]:
    ruleset = load_ruleset(ruleset_id)
    game = play_random_game(ruleset, players, seed)
    names = {i: n for i, n in enumerate(_NAMES[:players], start=1)}
    lines = [f"Демо-игра «{ruleset.title}»: {players} игроков, сид {seed}.", ""]
    for ev in game.events:
        line = None
        if render is not None and ev.phrase and ev.audience.kind == "public":
            line = render(ev.phrase, {**ev.params, "name": names.get(ev.params.get("seat", 0), "")})
        if line is None:
            line = describe(ev, names)
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
