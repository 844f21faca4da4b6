"""Issue 18 item 5: the engine may be made faster, never different. Digests pinned before the engine's
state was restructured: of every stored record (tests/records, all events in full and the final state)
and of seeded random games of every preset (the games' commands, every state after every command, every
event). A change of the state's layout keeps these digests; a change of the rules does not, and then the
new digests are pinned with a line in the commit saying why they changed.

The random games' commands are stored (tests/engine/data/simulated_games.json.gz, written by
scripts/store_simulated_games.py from the simulator as it was at 4bebd91): the engine's digests replay
those, so they hold whatever the simulator draws. The simulator's own games are pinned apart
(PINNED_SIMULATOR: the roles and commands of each seeded game).

The state is read field by field under the names it had when the digests were pinned (``STATE_FIELDS``),
so that moving a field into another record changes nothing here.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from engine import load_ruleset
from engine.commands import Command, command_from_json
from engine.events import Event
from engine.game import apply, new_game, replay
from engine.record import play_record
from engine.rules import Ruleset
from engine.simulate import play_random_game
from engine.state import GameState

RECORDS = Path(__file__).resolve().parents[1] / "records"
STORED_GAMES = Path(__file__).resolve().parent / "data" / "simulated_games.json.gz"

# GameState's fields when the digests were pinned, in that order.
STATE_FIELDS = [
    "ruleset",
    "seed",
    "roles",
    "alive",
    "phase",
    "day",
    "night",
    "intro",
    "step",
    "agenda",
    "rng",
    "ledger",
    "nominations",
    "ballots",
    "voted",
    "tie_words_given",
    "last_night_victims",
    "tiebreaker",
    "no_speech",
    "no_vote",
    "claimable",
    "first_speaker",
    "last_targets",
    "uses",
    "self_used",
    "team_joins",
    "pending_joins",
    "fouls",
    "revealed",
    "knowledge",
    "flags",
    "immune",
    "jail",
    "vote_links",
    "cleared",
    "day_votes",
    "resume",
    "winners",
    "draw",
    "position",
]
STEP_FIELDS = [
    "kind",
    "seat",
    "queue",
    "candidates",
    "round",
    "night_step",
    "seconds",
    "started_at",
    "permitted",
]
LEDGER_FIELDS = [
    "blocked",
    "protected",
    "attempts",
    "dead_tonight",
    "team_miss",
    "actions",
    "skipped",
    "proposals",
    "team_target",
    "chosen",
    "marks",
    "pending",
    "guards",
    "absorbed",
    "framed",
    "extra_shots",
    "next_day",
]

# (preset, options, players, seeds): every preset at its table, and the variants with code of their own.
TABLES: list[tuple[str, tuple[str, ...], int, int]] = [
    ("classic", (), 10, 12),
    ("classic", ("maniac", "doctor"), 12, 4),
    ("classic", ("judges",), 10, 4),
    ("classic", ("golden_minute", "bets"), 10, 4),
    ("classic", ("whole_deck",), 10, 4),
    ("classic", ("reduced",), 2, 4),
    ("simple", (), 12, 12),
    ("hobbyworld", (), 10, 8),
    ("hobbyworld", ("more_specials", "maniac"), 10, 4),
    ("hobbyworld", ("sequential_voting",), 10, 4),
    ("city", (), 10, 12),
    ("city", ("ranger",), 10, 4),
    ("blood", (), 10, 8),
    ("blood", ("more_specials", "kitsune"), 10, 4),
    ("blood", ("wolf",), 10, 4),
    ("fiim", (), 10, 8),
]


def canon(value: Any) -> Any:
    """``value`` as plain JSON data, the same whatever record or container holds it."""
    if isinstance(value, GameState):
        return {name: canon(getattr(value, name)) for name in STATE_FIELDS}
    if isinstance(value, Ruleset):
        return [value.id, list(value.selected_options)]
    if isinstance(value, Event):
        return value.to_json()
    kind = type(value).__name__
    if kind == "Step":
        return {name: canon(getattr(value, name)) for name in STEP_FIELDS}
    if kind == "NightLedger":
        return {name: canon(getattr(value, name)) for name in LEDGER_FIELDS}
    if isinstance(value, frozenset | set):
        return sorted((canon(v) for v in value), key=repr)
    if isinstance(value, tuple | list):
        return [canon(v) for v in value]
    if isinstance(value, dict):
        return {str(k): canon(v) for k, v in value.items()}
    if value is None or isinstance(value, bool | int | float | str):
        return value
    raise TypeError(f"no canonical form for {type(value).__name__}")


def _line(value: Any) -> bytes:
    return json.dumps(canon(value), ensure_ascii=False, sort_keys=True, default=repr).encode() + b"\n"


def game_digest(
    preset: str, options: tuple[str, ...], roles: list[str], seed: int, log: list[Command]
) -> str:
    """The game of ``roles`` and ``seed`` replayed from ``log``, one command at a time: every command,
    state and event."""
    ruleset = load_ruleset(preset, options)
    digest = hashlib.sha256()
    state, events = new_game(ruleset, roles, seed)
    digest.update(_line(state))
    for event in events:
        digest.update(_line(event))
    for command in log:
        digest.update(json.dumps(command.to_json(), sort_keys=True).encode() + b"\n")
        state, events = apply(state, command)
        digest.update(_line(state))
        for event in events:
            digest.update(_line(event))
    assert state.over
    return digest.hexdigest()[:16]


@functools.cache
def stored_games() -> dict[str, list[tuple[list[str], list[Command]]]]:
    """The stored games of each table, by seed: the roles dealt and the commands."""
    data = json.loads(gzip.decompress(STORED_GAMES.read_bytes()))
    return {
        table: [(game["roles"], [command_from_json(c) for c in game["commands"]]) for game in games]
        for table, games in data.items()
    }


def record_digest(path: Path) -> str:
    replay = play_record(json.loads(path.read_text(encoding="utf-8")))
    digest = hashlib.sha256()
    for event in replay.events:
        digest.update(_line(event))
    digest.update(_line(replay.state))
    return digest.hexdigest()[:16]


def table_id(table: tuple[str, tuple[str, ...], int, int]) -> str:
    preset, options, players, _ = table
    return "-".join((preset, *options, str(players)))


@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_stored_random_games_replay_as_pinned(table: tuple[str, tuple[str, ...], int, int]) -> None:
    preset, options, _, seeds = table
    games = stored_games()[table_id(table)]
    assert len(games) == seeds
    digests = [game_digest(preset, options, roles, seed, log) for seed, (roles, log) in enumerate(games)]
    assert digests == PINNED_GAMES[table_id(table)]


def simulated_digest(roles: list[str], commands: list[Command]) -> str:
    """The simulator's game: the roles dealt and every command."""
    digest = hashlib.sha256(json.dumps(roles).encode() + b"\n")
    for command in commands:
        digest.update(json.dumps(command.to_json(), sort_keys=True).encode() + b"\n")
    return digest.hexdigest()[:16]


@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_the_simulators_games_are_as_pinned(table: tuple[str, tuple[str, ...], int, int]) -> None:
    """The simulator's seeded games (its draws) are pinned apart from the engine's digests, and the draft it
    plays on ends where a replay of its commands does."""
    preset, options, players, seeds = table
    ruleset = load_ruleset(preset, options)
    digests = []
    for seed in range(seeds):
        game = play_random_game(ruleset, players, seed)
        digests.append(simulated_digest(game.roles, game.commands))
        final, _ = replay(ruleset, game.roles, seed, game.commands)
        assert canon(final) == canon(game.final)
    assert digests == PINNED_SIMULATOR[table_id(table)]


def test_every_stored_record_replays_as_pinned() -> None:
    paths = sorted(p for p in RECORDS.glob("*.json") if not p.name.endswith(".expected.json"))
    assert len(paths) >= 38
    assert {p.stem: record_digest(p) for p in paths} == PINNED_RECORDS


# Pinned at 2106930 (main before issue 18 item 5 changed the engine).
PINNED_GAMES: dict[str, list[str]] = {
    "blood-10": [
        "d7b73b2fd6804473",
        "7cb18694631cc746",
        "0cd9f70e8d6d224c",
        "45b93629acf70c71",
        "9e97f0695f89865e",
        "1df5614206cbeed5",
        "81a5d5f6fd695d8f",
        "3de24c207e38168f",
    ],
    "blood-more_specials-kitsune-10": [
        "e52639d8871d858f",
        "4959c57e54159623",
        "09fa22b75c657531",
        "d44c2228db720845",
    ],
    "blood-wolf-10": ["4bebdd81c9a65b96", "b6db7fb930adc87b", "e0436a549017b246", "f968966c8899ac2f"],
    "city-10": [
        "f5ecb0c6d739403a",
        "79711333793ac0f7",
        "d4903afd86857d2a",
        "fbd226fb851f8ed1",
        "e2e60e33d7c3116d",
        "89b50e24945b2db0",
        "cdddf58505fcf6e7",
        "19a046ec1e7e8348",
        "69743ead6ba3f1e6",
        "538cfd1bb1aca375",
        "a677d28e9d5e82b7",
        "765f92689dd7a543",
    ],
    "city-ranger-10": ["98b51dbb1b210182", "45a3f6b6c941fbe0", "66604907dc283594", "62b8d8aadb1e69e2"],
    "classic-10": [
        "31cd4a8ff4ef601a",
        "efdc541cc9fb21bd",
        "e023f9b281abd83d",
        "85525758c2e1a032",
        "0b2d46a678b8de73",
        "e3fee95318aa97a1",
        "69ff1de753ba17a0",
        "04deeee9b30a0cb6",
        "e63a323eaa1d46b2",
        "03aa53dbd053653e",
        "1832e9e3eb89e006",
        "12749ef1d7f53da6",
    ],
    "classic-golden_minute-bets-10": [
        "6f9970380891355c",
        "5e0bb4077ab474d3",
        "f40c752920d7c82a",
        "5a5c2c4d603f3c17",
    ],
    "classic-judges-10": ["8a56ddb6d15e5ec1", "8bb4ced5f033fe09", "c00dac11439ed4ec", "dcccad3d252cce2d"],
    "classic-maniac-doctor-12": [
        "0389812cc98287f6",
        "fba22c0c470a4aba",
        "ce833650a0177a3c",
        "b7497ca37660d905",
    ],
    "classic-reduced-2": ["3c055b4841ced802", "4b809008889a3f79", "b50ae7faacc3a331", "943c9c1ebae9e2c9"],
    "classic-whole_deck-10": ["3cb19eef9e61fda7", "b8421429d7bab633", "07610e54e8bf66a1", "09da7e9e2caf855d"],
    "fiim-10": [
        "53f742cc20383cc5",
        "aa0878ed3c4a4f71",
        "5f996327761ed302",
        "a8147d50db9e0909",
        "5977935ba7f24fef",
        "4f919213f841ec3d",
        "560abd14c967f77c",
        "0e6ef5771b1bc04d",
    ],
    "hobbyworld-10": [
        "00ca8ace97a87c42",
        "93251f66bba0a7b2",
        "e0f721f67fcb5055",
        "7cf67e222c293efb",
        "22441c943165fa9b",
        "ee1a60863ce05d64",
        "b50288d3fe4f0119",
        "544f52a8e8061c36",
    ],
    "hobbyworld-more_specials-maniac-10": [
        "477dc1ccd22343b7",
        "8b3d415c658caf46",
        "50051d0fe2a87269",
        "0ad045b546aff506",
    ],
    "hobbyworld-sequential_voting-10": [
        "7d1176bb9642cc0b",
        "8c3f38629aa0a00b",
        "47c1e36f93459a14",
        "f6a798082641a89c",
    ],
    "simple-12": [
        "97b073c13c5099a3",
        "e0352cd28745a1b7",
        "f7a9d1cc28d67a15",
        "403578b323804505",
        "cea24d56c097bc39",
        "aa0927d23ba531aa",
        "17f79a1e1a554e88",
        "b9f8570d8cddd6ed",
        "bb6e5b54e945acbd",
        "e076f6b5f5fecdb9",
        "da3b5d1c8e3e0fce",
        "342cb40b1f8de598",
    ],
}
PINNED_RECORDS: dict[str, str] = {
    "blood-ghoul-attempts": "8943ffdaf9085c30",
    "blood-hunters-win": "11f30eda76810d5e",
    "blood-lamia-ghoul-revenant": "cec5e3d8fbe50fdf",
    "blood-leader-denies-vote": "be9e4c3028dc45a5",
    "blood-no-lynch-werewolf-survives": "b7ed30d3bb6a5eec",
    "blood-prince-kitsune": "5fb7277b35a99068",
    "blood-prince-release": "95bd5adf6ee981ea",
    "blood-queen-lamia-neophyte": "5127d65295d8cd40",
    "blood-sequential-queen": "7ee09a5fb5075820",
    "blood-specials": "64f1cdcb7e0e0ea1",
    "city-agent-alibi-link": "c2f534c2caf0bfa0",
    "city-blocked-mafia-proposal": "9690d4f4999f9041",
    "city-car-crash-link": "9d8ebdf524c5b09b",
    "city-car-crash-three-way": "99c8ce079cf80375",
    "city-club-immunity-award": "17ed3a669e4d0b8d",
    "city-doctor-alibi-link": "2056f850fd190670",
    "city-fouls-thresholds": "ed79d3754c2b787f",
    "city-immunity-below-nine": "0a0661aa6d81665a",
    "city-immunity-misses": "abb5884d0948c0ed",
    "city-maniac-wins": "191c6759986c5ceb",
    "city-night-removal": "198609afd272664d",
    "city-ranger-sleeper-town-win": "a5a15ec8b82fe9bd",
    "city-removal-cancels-vote": "5e665c95951b321b",
    "city-removal-in-car-crash": "7f4921ebb92db84b",
    "city-self-shot-ranger": "d11ef6eda280c6cb",
    "city-sleepers-stay-ranger": "4cce938fabd35522",
    "classic-doctor": "21a2a624f406f2fa",
    "classic-doctor-revive": "e6b297743e2585d0",
    "classic-golden-minute-bets": "bac9afe7cd05df0d",
    "classic-hidden-roles": "b3acdbb7948c00a2",
    "classic-immortal": "63cab89787e1d82f",
    "classic-issue-example": "6131a4aedaf4ea54",
    "classic-judges": "b1fcb0328079cfd7",
    "classic-judges-mafia-judge-left": "72fad3fdea193fa6",
    "classic-judges-must-kill": "7bcbf95309ad89e1",
    "classic-lawyer": "4b88bf4d9595b1dc",
    "classic-mafia-win": "ae56f00e504ccea4",
    "classic-maniac": "775b24187107e0f8",
    "classic-nohost-countdown": "24dcf5365c3a65dd",
    "classic-plates-killed-and-immune": "e1d9d1ec379ce6f1",
    "classic-reduced-3": "223e13e2a0620448",
    "classic-reduced-3-tie-mafia-wins": "9655677a4170d1e2",
    "classic-reduced-4-tiebreak": "7b99aa39351a585e",
    "classic-reduced-5": "f53b641a5924956a",
    "classic-reduced-6-day-one-tie": "578d5eead6bfa6ca",
    "classic-sheriff": "fdb7af733c51651b",
    "classic-three-way-tie-partial": "c0534eaefd4ab2c9",
    "classic-tiebreak": "677f5543c6028b02",
    "classic-tiebreak-commissar": "3982d8f5cf7a26ad",
    "classic-tiebreak-later-victim": "d960412c31c4ab50",
    "classic-town-win": "b804b76ae49d0a94",
    "classic-two-players": "f6bf973631c66ffa",
    "classic-two-players-opponent": "60081d167c0222c9",
    "classic-two-tied-of-three-nobody": "50e4972684db75ad",
    "classic-werewolf": "9261a4c3a38bd1da",
    "classic-werewolf-sheriff": "bb097bd0619e488f",
    "classic-whole-deck": "b01539ec674855e8",
    "classic-yakuza-ninja": "6b6ddc45a28205eb",
    "hobbyworld-ballot-without-hands": "77d6a7ee21800f37",
    "hobbyworld-beauty-blocks": "ec90e3350148c2d2",
    "hobbyworld-blocked-bodyguard": "801bab9c48038537",
    "hobbyworld-bodyguard-protected": "15dc8864dd485ee0",
    "hobbyworld-bodyguard-two-attempts": "d8a545fc8e76f6cd",
    "hobbyworld-jailer-frame-release": "4cd98785b6962d44",
    "hobbyworld-journalist-sides": "788d4548ee0a520e",
    "hobbyworld-judge": "e7f2c60e895d7324",
    "hobbyworld-leader-shot-first": "324daef9b83606dd",
    "hobbyworld-loner-may-survive": "7a5eab85373fd3ac",
    "hobbyworld-loner-wins": "d6abe678a41f2fd1",
    "hobbyworld-mafia-win": "dd0ded1eb974d8ed",
    "hobbyworld-priest-ripper": "42ea7deec05a6efb",
    "hobbyworld-ripper-bodyguard": "911a861f7ba6bb51",
    "hobbyworld-sequential": "428e96624e6f905d",
    "hobbyworld-sequential-half": "080837314c096198",
    "hobbyworld-snitch-frames": "7a4a4c41a8e19b51",
    "hobbyworld-specials": "6ae1ce8560c87e35",
    "hobbyworld-tie-no-lynch": "093b80bfbb2d76a8",
    "hobbyworld-town-win": "895e1a1c089cf102",
    "hobbyworld-true-result-checks": "92c1989a00879246",
    "hobbyworld-yakuza": "4a25e81b080d393b",
    "hobbyworld-yakuza-win": "b35897344a1c3c6f",
    "simple-complete": "bbf5b77824527fc1",
    "simple-confession-question": "9f3bd1ec5cc1b4f9",
    "simple-half-and-own-kill": "23d203d31780ba3b",
    "simple-mafia-and-maniac-left": "70d1211a72851766",
    "simple-mafia-win": "42b2c62ebe629d05",
    "simple-maniac-joins-town": "a111686354dea7cd",
    "simple-maniac-silent-voted-out": "05d5c2638a368461",
    "simple-putana-blocks": "3cd77111f4de6463",
}
# The simulator's seeded games (roles and commands), pinned anew whenever its draws change: the commits of
# engine/simulate.py say why (c3c3fe8: the lean players' draws; then a nomination's uniform free seat; then
# the players' values from SHAKE-128 instead of SplitMix64, engine.simulate.PlayersRng).
PINNED_SIMULATOR: dict[str, list[str]] = {
    "blood-10": [
        "d72a66c49d87b9df",
        "a0a9053100c221d1",
        "1618df140bb13cc2",
        "cb0607a0e931512a",
        "b1dd18f1d5616782",
        "29ff82c7ecfe05f4",
        "8c0de3cf6907eafc",
        "227cddcf65936fd2",
    ],
    "blood-more_specials-kitsune-10": [
        "791a894c929889e2",
        "f3e4aff4b0ede633",
        "af2dd4b61fbb196e",
        "e2f7544d436773ea",
    ],
    "blood-wolf-10": [
        "b7157cd96f7ef412",
        "47aa3d3be76ba612",
        "e1ae0be6d1b3feb2",
        "7d57298a8fd8fb85",
    ],
    "city-10": [
        "e370ba47bf3363b9",
        "5c8154f945d3097b",
        "0f86c65e9f897122",
        "3e5152eb49f06a5b",
        "2d767fb10cf60167",
        "81f94257b6719d1a",
        "232bf6153858d034",
        "109584ef188675f5",
        "a6956decb8911e16",
        "c202f11764c4579c",
        "74581f8c090e4f3f",
        "1e41f83dddb49f4f",
    ],
    "city-ranger-10": [
        "a1f3ed1e3611e44d",
        "0c49b099d60f5d18",
        "b8cc27668495aea6",
        "a904ca464febef9c",
    ],
    "classic-10": [
        "9698ce3fbc880096",
        "813a19e38423a551",
        "fb6d83b3925aa0c0",
        "ed651b65edaea7be",
        "5ad4ba4fab1b064f",
        "cdf0833af800ef5d",
        "1b8e130522757453",
        "1a174ec6128cf1ed",
        "f8a86213de119725",
        "65dbb8c4946c86b9",
        "4bb66dbeea55b29b",
        "5d818c240435c2e4",
    ],
    "classic-golden_minute-bets-10": [
        "979ac424923ef87d",
        "7f9abbb4a5dc5169",
        "b2e557a4d3231344",
        "2b36ef271ba9ac0c",
    ],
    "classic-judges-10": [
        "f3ef7e0afea6e5bf",
        "b0b6bbd9f46a0a11",
        "f3985d1238f839cf",
        "f0f7e8524453ca7b",
    ],
    "classic-maniac-doctor-12": [
        "021ee1151112b696",
        "c1dc5db56f750d3c",
        "334c114824b51243",
        "251414ed49680fe7",
    ],
    "classic-reduced-2": [
        "a8b68819dc845ff0",
        "880e228cf6dd6978",
        "80a0fa7c00c4d730",
        "73523e8f20c7fa50",
    ],
    "classic-whole_deck-10": [
        "a28a99b0296d81e8",
        "f08dbe2595e24236",
        "fd61b4022e13c2b8",
        "76b729aa298d68b9",
    ],
    "fiim-10": [
        "b2c55d626444bb08",
        "47bcd26046bcc34b",
        "f726f8e002842588",
        "a1ea9f61415d9444",
        "57898c747885a37b",
        "f6e4fae88952ad37",
        "370042c434588b2c",
        "ca3d06b17e9ef5f1",
    ],
    "hobbyworld-10": [
        "dc7557927ad5b567",
        "e4164ba920efbeca",
        "8c65038285a81472",
        "2ba53638de2f5543",
        "7245d5492cb1b8cd",
        "3bddac919e0567db",
        "a88888dd2c04707f",
        "0871d9bfae575192",
    ],
    "hobbyworld-more_specials-maniac-10": [
        "d94429c35fa16d67",
        "3064e10d0f8f249b",
        "dada5cfa908d5a0c",
        "285f33ad77d73ae3",
    ],
    "hobbyworld-sequential_voting-10": [
        "46d2798874060ec4",
        "decf295ad9df254c",
        "adbdda43efd56472",
        "68834fb798298249",
    ],
    "simple-12": [
        "a619e3c439a01967",
        "568d767d4ae7a561",
        "f4ba25b5e8ba167f",
        "2fbbf7a2bb87e664",
        "da2c271a05671b2c",
        "c5bc44f1edf09bb2",
        "00b6fd161bd70ba6",
        "deb12ccc6f95b268",
        "c827c9867e38ba25",
        "c4fdd92af036170c",
        "79380b7d2e3aa2bc",
        "553b9de63b6d417e",
    ],
}
