"""`hobbyworld` records as an outside checker writes them from seed 000: where a record breaks a rule, the
error line says what to write instead and ``--explain`` names the book's rule (README, "Game records"),
not a generic line or another preset's rule."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.record import RecordError, play_record

INVALID = Path(__file__).resolve().parents[1] / "records" / "invalid"


def _refusal(name: str) -> RecordError:
    with pytest.raises(RecordError) as refused:
        play_record(json.loads((INVALID / f"{name}.json").read_text(encoding="utf-8")))
    return refused.value


@pytest.mark.parametrize(
    ("name", "says", "rule"),
    [
        # a mafioso's shot written as his own action: the team entry is what to write
        ("hobbyworld-mafioso-shoots-alone", '{"team": "mafia", "target": t}', ""),
        # the detective «либо застрелить одного игрока, либо узнать его роль»: "act" names which
        ("hobbyworld-detective-without-act", "kill, check", "«Может либо застрелить одного игрока"),
        ("hobbyworld-detective-shoot-act", "its acts are 'kill', 'check'", ""),
        # the book's Russian role names are not the record's ids: the ids are listed
        ("hobbyworld-russian-role-name", "its role ids: civilian, mafioso, godfather", ""),
        # an acquitted candidate nominated again that day
        (
            "hobbyworld-acquitted-renominated",
            "уже голосовали",
            "000: «нельзя несколько раз за день голосовать",
        ),
        # one hand per voter in the plurality vote (D-H17), not the city's fouls (D-F2)
        ("hobbyworld-two-hands", "Вы уже проголосовали", "hobbyworld and blood D-H17"),
        # fouls belong to the club rules of 001 and 004, not to this book
        ("hobbyworld-foul", "нет замечаний", "RULESETS.md 9: fouls are the club conduct rules"),
        # the yakuza's shot at a table without yakuza
        (
            "hobbyworld-yakuza-without-yakuza",
            "nobody at this table plays in the team 'yakuza'",
            "«Разумеется",
        ),
        # a last word: the book has none (D-H21), and no turns to speak at all (4.7)
        ("hobbyworld-last-word", "nobody has a turn to speak", "D-H21"),
        # the judge acquits «только раз в день»
        ("hobbyworld-judge-acquits-twice", "acquittal was already used (seat 4", "только раз в день"),
        # who may sit at the table: the book's limits that are not advice
        ("hobbyworld-two-leaders", "2 leaders (detective, sheriff)", "«В игре может быть только один лидер»"),
        ("hobbyworld-two-loners", "2 loners (maniac, ripper)", "«В игре может быть только один одиночка»"),
        ("hobbyworld-yakuza-at-eight", "the yakuza at a table of 8", "игроков должно быть 12 и больше"),
        # every mafioso out: the sleepwalker is not woken alone (D-G8, D-H7)
        ("hobbyworld-mafia-gone-sleepwalker-left", "every member of the team 'mafia'", "D-G8"),
    ],
)
def test_a_checker_s_slip_is_told_what_to_write_and_which_rule(name: str, says: str, rule: str) -> None:
    refusal = _refusal(name)
    assert says in str(refusal)
    assert rule in refusal.rule
    assert "The chosen target is not allowed" not in refusal.rule
    assert "D-F2" not in refusal.rule and "A removal during someone's step" not in refusal.rule


def test_options_may_be_a_list_of_ids() -> None:
    """README, Game records: «`options`: the preset's options (`{"maniac": true}` or a list)» — the list
    form replays the same game (it raised a ValueError with a traceback)."""
    path = INVALID.parent / "hobbyworld-loner-wins.json"
    record = json.loads(path.read_text(encoding="utf-8"))
    as_list = {**record, "options": [k for k, v in record["options"].items() if v]}
    assert as_list["options"] == ["maniac", "sheriff"]
    assert [e.to_json() for e in play_record(as_list).events] == [
        e.to_json() for e in play_record(record).events
    ]
    with pytest.raises(RecordError, match="a list of option ids"):
        play_record({**record, "options": "maniac"})
