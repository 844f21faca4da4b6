"""Issue 15 (2, 4): records are checked entry by entry, also on the day the game ends, and the record
contract (README, "Game records") can say what happens at tables: a mafia without its don agreeing
through each member's proposal, a nominee removed in the middle of a day, speeches and passes,
permissions to speak; ``python -m engine replay --explain`` names the rule behind a refusal."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.record import RecordError, play_record

ROOT = Path(__file__).resolve().parents[2]
CITY = ["don", "city_lawyer", "mafioso", "mafioso", "city_sheriff", "ranger", "agent", "doctor", "maniac",
        "civilian", "civilian", "civilian", "civilian"]  # fmt: skip
# The don is voted out on day 1; on night 2 the mafia (lawyer 2, mafiosi 3 and 4) has no don.
DAY_1 = {"day": {"nominations": [[5, 1], [6, 12]], "votes": [[1, [2, 3, 5, 6, 7, 8, 9, 10, 11]], [12, []]]}}
NIGHT_ROLES = [
    {"seat": 2, "target": 3},
    {"seat": 5, "target": 9},
    {"seat": 7, "target": 11},
    {"seat": 8, "target": 13},
]


def _mafia(*targets: int) -> list[dict[str, int]]:
    return [{"team": "mafia", "seat": seat, "target": t} for seat, t in zip((2, 3, 4), targets, strict=True)]


def city(*script: dict[str, Any]) -> Any:
    return play_record(
        {"ruleset": "city", "seed": 3, "seats": CITY, "script": [{"night": []}, DAY_1, *script]}
    )


def brief(events: Any, *types: str) -> list[tuple[Any, ...]]:
    fields = ("seat", "target", "allow", "reason")
    return [(e.type, *(v for k, v in e.data.items() if k in fields)) for e in events if e.type in types]


def test_a_mafia_without_its_don_agrees_through_each_member_s_proposal() -> None:
    """D-C10: «Without the don, every living mafia member must pick; identical picks → target; otherwise
    → miss» — written as one team entry per member, ``{"team": "mafia", "seat": s, "target": t}``."""
    agreed = city({"night": [*_mafia(10, 10, 10), *NIGHT_ROLES]})
    assert ("killed", 10) in brief(agreed.events, "killed")
    split = city({"night": [*_mafia(10, 10, 11), *NIGHT_ROLES]})
    assert brief(split.events, "killed") == [("killed", 1)] or ("killed", 10) not in brief(
        split.events, "killed"
    )
    assert any(e.type == "team_missed" for e in split.events)


SPOKE = [10, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13]  # the night victim's words, then the day's speeches
DAY_2 = {
    "permissions": [[3, 5], [3, 5, False]],
    "passes": [4],
    "nominations": [[3, 12], [4, 13]],
}


def test_speeches_passes_and_permissions_are_replayed_and_checked() -> None:
    """001: «В свою минуту игрок может также разрешить говорить другому игроку, а затем отозвать
    разрешение (например, - «разрешаю 5», «запрещаю 5»)» and «Минуту речи игрок может завершить досрочно
    словом «пас»»; ``speeches`` lists every speech of the day in the order the host gives the floor (the
    night victim's words first)."""
    votes = [[12, [2]], [13, []]]  # 12 is voted out and says farewell
    r = city(
        {"night": [*_mafia(10, 10, 10), *NIGHT_ROLES]},
        {"day": {**DAY_2, "speeches": [*SPOKE, 12], "votes": votes}},
    )
    told = brief(r.events, "permission", "passed")
    assert told == [("permission", 3, 5, True), ("permission", 3, 5, False), ("passed", 4)]
    with pytest.raises(RecordError, match="the floor goes to seat 2") as info:
        city({"night": [*_mafia(10, 10, 10), *NIGHT_ROLES]}, {"day": {**DAY_2, "speeches": [10, 3]}})
    assert "speeches" in info.value.rule
    with pytest.raises(RecordError, match="no speech left"):
        city({"night": [*_mafia(10, 10, 10), *NIGHT_ROLES]}, {"day": {**DAY_2, "passes": [4, 4]}})
    with pytest.raises(RecordError, match="not in the speaker's own speech"):
        city({"night": [*_mafia(10, 10, 10), *NIGHT_ROLES]}, {"day": {**DAY_2, "permissions": [[1, 5]]}})


def test_a_nominee_removed_before_the_vote_cancels_it_and_during_it_does_not() -> None:
    """001: «Если игровой стол днём покинул игрок, выставленный на голосование, голосование не состоится,
    если удаление случилось в момент голосования, голоса засчитываются, голосование не отменяется» —
    a removal names its moment: ``{"speech": seat}`` (in that speech), ``{"ballot": candidate}``."""
    night = {"night": [*_mafia(10, 10, 10), *NIGHT_ROLES]}
    before = city(night, {"day": {**DAY_2, "removals": [[12, "confession", {"speech": 13}]]}})
    assert ("removed", 12, "confession") in brief(before.events, "removed")
    assert [e.data["reason"] for e in before.events if e.type == "no_elimination"][-1:] == ["cancelled"]
    during = city(night, {"day": {**DAY_2, "removals": [[12, "confession", {"ballot": 13}]],
                                  "votes": [[12, [2, 3, 5, 6, 7, 8]], [13, [4]]]}})  # fmt: skip
    # the removed nominee's six votes still count: he has left already, so nobody else is executed
    counts = [(e.data["candidate"], e.data["count"]) for e in during.events if e.type == "vote_count"][-2:]
    assert counts == [(12, 6), (13, 1)]
    assert not [e for e in during.events if e.type == "executed" and e.data["seat"] == 13]
    with pytest.raises(RecordError, match="this moment did not come"):
        city(night, {"day": {**DAY_2, "removals": [[12, "confession", {"ballot": 7}]]}})


def test_the_keys_the_engine_already_accepted_are_part_of_the_contract() -> None:
    """README, Game records: ``options.immunity`` (city D-C5: «those who take part are immune»),
    ``removals: [[seat, "confession"]]`` at the start of a day, and last words as ``speech`` events with
    their ``purpose``."""
    r = play_record({"ruleset": "city", "seed": 3, "seats": CITY, "options": {"immunity": [10]},
                     "script": [{"night": []}, {"day": {"removals": [[13, "confession"]]}}]})  # fmt: skip
    assert 10 in r.state.immune
    assert ("removed", 13, "confession") in brief(r.events, "removed")
    farewell = [e.data for e in city().events if e.type == "speech" and e.data["purpose"] == "farewell"]
    assert farewell and farewell[0]["seat"] == 1


def test_an_entry_left_over_on_the_winning_day_is_an_error() -> None:
    """Issue 15 (2): «Every entry of a record is checked, whenever the game ends» — a second golden minute
    on the winning day is refused as on any other day."""
    path = ROOT / "tests" / "records" / "invalid" / "classic-golden-minute-twice-on-the-winning-day.json"
    with pytest.raises(RecordError, match="the game ended this day"):
        play_record(json.loads(path.read_text(encoding="utf-8")))


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "engine", "replay", *args], cwd=ROOT, capture_output=True,
                          text=True, encoding="utf-8", timeout=60)  # fmt: skip


def test_replay_explain_prints_the_rule_that_forbids_the_entry() -> None:
    """Issue 15: «`python -m engine replay --explain` prints, for a rejected record, the rule that forbids
    the entry» — here D-G4 for a doctor who may not heal himself; without --explain one line only."""
    path = str(ROOT / "tests" / "records" / "invalid" / "hobbyworld-doctor-self.json")
    plain, explained = _cli(path), _cli("--explain", path)
    assert plain.returncode == explained.returncode == 2 and not explained.stdout
    assert len(plain.stderr.splitlines()) == 1
    first, rule = explained.stderr.splitlines()
    assert first == plain.stderr.strip()
    assert rule.startswith("rule: D-G4") and "own user" in rule
    court = _cli(
        "--explain", str(ROOT / "tests" / "records" / "invalid" / "classic-court-accused-judge-votes.json")
    )
    assert court.stderr.splitlines()[1].startswith("rule: 002: «")


def test_explain_names_the_city_rule_behind_a_spent_or_early_ability_and_a_team_all_out() -> None:
    """An outside checker's city records: the lawyer's second save («один раз за игру он показывает
    ведущему, кого из игроков хочет спасти»), the ranger on the acquaintance night's follower («1 раз за
    игру, начиная со второй ночи», D-C3) and a mafia shot after every member left the table (D-G6; the
    step is still called, D-G8, and the shot used to kill) are refused with the rule, not a generic
    line."""
    first = {"night": [*_mafia(10, 10, 10), *NIGHT_ROLES]}  # the lawyer (2) saves 3 on night 2
    with pytest.raises(RecordError, match="не может использовать способность") as spent:
        city(first, {"day": {}}, {"night": [*_mafia(11, 11, 11), {"seat": 2, "target": 12}]})
    assert "1 time(s) a game and is spent" in spent.value.rule
    path = ROOT / "tests" / "records" / "invalid" / "city-ranger-first-night.json"
    with pytest.raises(RecordError) as early:
        play_record(json.loads(path.read_text(encoding="utf-8")))
    assert "from night 3" in early.value.rule and "this is night 2" in early.value.rule
    path = ROOT / "tests" / "records" / "invalid" / "city-mafia-all-out-shoots.json"
    with pytest.raises(RecordError, match="никого не осталось за столом") as gone:
        play_record(json.loads(path.read_text(encoding="utf-8")))
    assert gone.value.rule.startswith("D-G6")


def test_explain_names_why_a_vote_was_refused_or_did_not_take_place() -> None:
    """A checker's votes that the rules refuse name the rule: four fouls of the previous day (001: «4
    замечания – нельзя также голосовать»), a prisoner (003: «Заключённые не имеют права голосовать»);
    a ballot written for a day whose vote was cancelled by a nominee's removal says so (001: «голосование
    не состоится»)."""
    invalid = ROOT / "tests" / "records" / "invalid"
    reasons = {}
    for name in ("city-four-fouls-vote", "blood-prisoner-votes", "city-ballot-after-cancelled-vote"):
        with pytest.raises(RecordError) as refused:
            play_record(json.loads((invalid / f"{name}.json").read_text(encoding="utf-8")))
        reasons[name] = (str(refused.value), refused.value.rule)
    assert reasons["city-four-fouls-vote"][1].startswith("001: «4 замечания – нельзя также голосовать»")
    assert (
        reasons["blood-prisoner-votes"][1].startswith("D-H15")
        and "Заключённые" in reasons["blood-prisoner-votes"][1]
    )
    assert "голосование не состоится" in reasons["city-ballot-after-cancelled-vote"][0]


@pytest.mark.parametrize(
    ("name", "rule"),
    [
        # the acquaintance night of the preset played, not hobbyworld's section 4
        ("acquaintance-night-check", "rule: D-CL10: night 1 is the acquaintance only"),
        # the two-nights rule in the words of seed 004, not of 001's agent
        ("same-target-twice", "rule: 004: «Нельзя 2 ночи подряд давать зелье одному и тому же жителю»"),
        # one hand per voter (D-CL3), not the city's fouls for a second vote (D-F2)
        ("second-vote", "rule: one vote per voter in a ballot: classic D-CL3"),
        # a group kill at a player already out names D-G6, not «The chosen target is not allowed»
        ("classic-mafia-shoots-the-lynched", "rule: D-G6: «Убитые не могут"),
        ("classic-day-one-nomination", "rule: RULESETS.md 6.4–6.5 (classic): day 1 is introductions only"),
        # a mafioso's own shot is the team's: the contract's line for team entries
        ("classic-mafioso-shoots-alone", 'rule: README, Game records: «{"team": "mafia"'),
        ("classic-werewolf-before-trigger", "rule: D-CL7: before a clan member is eliminated"),
        ("simple-putana-invites-herself", "rule: D-S9: the putana invites another player, not herself"),
        # one nomination each is the preset's setting, not city's D-C12 (seed 002 sets no number)
        (
            "classic-two-nominations-by-one-player",
            "rule: at most 1 nomination(s) by one player a day: the preset",
        ),
        ("simple-claim-by-a-living-player", "rule: D-S8: only a player killed last night says «Я комиссар»"),
        ("simple-nominates-a-banned-out-player", "rule: D-G6: «Убитые не могут никаким образом"),
    ],
)
def test_explain_names_the_rule_of_the_preset_played(name: str, rule: str) -> None:
    """A checker who reads seed 002 or 004 and writes a wrong entry is told the rule of that book: the
    acquaintance night (D-CL10), the doctor's «Нельзя 2 ночи подряд» (004), one vote per voter (D-CL3),
    no shot at a player already out (D-G6), no nominations on the introductions day (6.4), a mafioso's
    shot written as his own (the team's entry), the werewolf before his trigger (D-CL7), the putana inviting
    herself (D-S9)."""
    explained = _cli("--explain", str(ROOT / "tests" / "records" / "invalid" / f"{name}.json"))
    assert explained.returncode == 2 and not explained.stdout
    assert explained.stderr.splitlines()[1].startswith(rule)


def test_explain_names_d_c12_for_a_repeated_or_second_nomination() -> None:
    """D-C12: «During his minute a speaker may nominate at most one player …; re-nominating an already
    nominated player is ignored» — a checker who writes either is told the decision, not a generic line."""
    invalid = ROOT / "tests" / "records" / "invalid"
    rules = []
    for name in ("city-nominated-twice", "city-two-nominations-in-a-minute"):
        with pytest.raises(RecordError) as refused:
            play_record(json.loads((invalid / f"{name}.json").read_text(encoding="utf-8")))
        rules.append(refused.value.rule)
    assert "host ignores it (city D-C12)" in rules[0]
    assert rules[1].startswith("at most 1 nomination(s)") and "D-C12" in rules[1]


def test_the_readme_documents_every_key_of_the_record_contract() -> None:
    """Issue 15: «document every key in the README's "Game records" section» — every top-level, day and
    night key the replay reads, and the removal moments."""
    from engine.record_day import DAY_KEYS, MOMENTS, _step_keys

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("### Game records", 1)[1].split("\n## ", 1)[0]
    keys = {"ruleset", "options", "immunity", "seed", "seats", "script", "commands", "players"}
    keys |= {"team", "seat", "target", "targets"}
    keys |= {"act", *DAY_KEYS, *MOMENTS, *_step_keys()}
    missing = sorted(k for k in keys if f"`{k}`" not in section and f'"{k}"' not in section)
    assert missing == []


STORED = sorted(p for p in (ROOT / "tests" / "records").glob("*.json") if ".expected" not in p.name)


@pytest.mark.parametrize("path", STORED, ids=lambda p: p.stem)
def test_every_stored_script_replays_the_same_as_the_bot_s_protocol(path: Path) -> None:
    """README, Game records: «`commands` instead of `script`: … it replays to the game's events» — each
    stored record's script, written as the commands the engine took (the bot's protocol of that game),
    replays to the very same events: the variants' own steps (court, golden minute, bets, cards), ties,
    tiebreaks, claims and the maniac's answer included."""
    record = json.loads(path.read_text(encoding="utf-8"))
    scripted = play_record(record)
    protocol = {key: record[key] for key in ("ruleset", "options", "seed", "seats") if key in record}
    protocol |= {"players": [], "commands": [c.to_json() for c in scripted.commands]}
    replayed = play_record(json.loads(json.dumps(protocol)))
    assert [e.to_json() for e in replayed.events] == [e.to_json() for e in scripted.events]


@pytest.mark.parametrize("preset", ["classic", "simple", "hobbyworld", "city", "blood"])
def test_the_bot_s_protocol_form_replays_to_the_game_s_events(preset: str) -> None:
    """Issue 15: «The protocol the bot exports for a finished game … is a record that `python -m engine
    replay` accepts and that reproduces the game's events» — a record may give the game's ``commands``
    instead of a script; a simulated game of each preset, written so, replays to its own events."""
    from engine import load_ruleset
    from engine.composition import player_counts
    from engine.simulate import play_random_game

    ruleset = load_ruleset(preset)
    game = play_random_game(ruleset, player_counts(ruleset)[-1], 5)
    record = {"ruleset": preset, "seed": game.seed, "seats": game.roles, "players": [],
              "commands": [c.to_json() for c in game.commands]}  # fmt: skip
    replayed = play_record(record)
    assert [e.to_json() for e in replayed.events] == [e.to_json() for e in game.events]
    assert replayed.state.winners == game.final.winners
    record["commands"] = [*record["commands"], {"type": "advance"}]
    with pytest.raises(RecordError, match=r"commands\[\d+\].*already over"):
        play_record(record)
    with pytest.raises(RecordError, match="a script or"):
        play_record({**record, "script": []})
