"""A club's database for the web tests: whole classic games played by the engine's simulator and stored
as the bot stores them (deal, every command, results, ratings), a foul, and a game still running."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import engine
from engine.simulate import play_random_game
from mafiabot.storage import SeatAssignment, SeatResult, Storage

GUILD = 910_000_000_000_000_001
OTHER_GUILD = 910_000_000_000_000_002
NAMES = ["Аня", "Борис", "Вера", "Глеб", "Дина", "Егор", "Жанна", "Зоя", "Илья", "Кира", "Лев", "<b>Мила</b>"]
USERS = [920_000_000_000_000_100 + i for i in range(len(NAMES))]
START = datetime(2026, 11, 1, 19, 0, tzinfo=UTC)


@dataclass
class Seeded:
    finished: list[int]
    running: int
    other_guild_game: int
    running_roles: list[str]  # the running game's deal, which no page may show


def _store(
    storage: Storage,
    guild_id: int,
    seed: int,
    at: datetime,
    players: list[tuple[int, str]],
    finish: bool,
    foul: bool = False,
    ruleset_id: str = "classic",
    options: tuple[str, ...] = (),
) -> tuple[int, list[str]]:
    rules = engine.load_ruleset(ruleset_id, list(options))
    game = play_random_game(rules, len(players), seed)
    row = storage.create_game(
        guild_id=guild_id,
        voice_channel_id=guild_id + 1,
        text_channel_id=guild_id + 2,
        ruleset_id=ruleset_id,
        seed=seed,
        options=dict.fromkeys(options, True),
        at=at,
        seats=[
            SeatAssignment(seat, user, name, role, rules.roles[role].side)
            for seat, ((user, name), role) in enumerate(zip(players, game.roles, strict=True), start=1)
        ],
    )
    assert row.id is not None
    log = game.commands if finish else game.commands[: len(game.commands) // 2]
    for i, command in enumerate(log):
        storage.append_command(row.id, command.to_json(), at=at + timedelta(seconds=i))
    if foul:
        seat = 2
        user = players[seat - 1][0]
        storage.add_foul(
            row.id, seat=seat, user_id=user, reason="перебивал", day=1, given_by=players[-1][0], at=at
        )
    if finish:
        winners = list(game.final.winners or ())
        results = [
            SeatResult(seat, "win" if rules.roles[role].side in winners else "loss")
            for seat, role in enumerate(game.roles, start=1)
        ]
        storage.finish_game(row.id, winners=winners, results=results, at=at + timedelta(hours=1))
        storage.rate_game(row.id, at=at + timedelta(hours=1))
    return row.id, list(game.roles)


def store_game(
    storage: Storage, ruleset_id: str, options: tuple[str, ...], players: int, seed: int = 1
) -> int:
    """One finished game of ``ruleset_id`` with ``options`` on the club's server (the twelve members, then
    guests named in Latin letters)."""
    members = [
        *zip(USERS, NAMES, strict=True),
        *((930_000_000_000_000_000 + i, f"Guest {i}") for i in range(players)),
    ]
    return _store(
        storage, GUILD, seed, START, members[:players], True, ruleset_id=ruleset_id, options=options
    )[0]


def seed_club(
    storage: Storage,
    guild_id: int = GUILD,
    members: list[tuple[int, str]] | None = None,
    *,
    other_guild: int | None = OTHER_GUILD,
    running: bool = True,
) -> Seeded:
    """Four finished games of ten among ``members`` (user id, name; twelve by default), a foul in the
    first; a running game of the first ten when ``running``; a finished game on ``other_guild``."""
    members = members or list(zip(USERS, NAMES, strict=True))
    finished = []
    for day in range(4):
        players = [members[(day * 3 + i) % len(members)] for i in range(10)]
        game_id, _ = _store(
            storage, guild_id, 101 + day, START + timedelta(days=day), players, True, day == 0
        )
        finished.append(game_id)
    playing, roles = (
        _store(storage, guild_id, 7, START + timedelta(days=5), members[:10], False) if running else (0, [])
    )
    other = _store(storage, other_guild, 8, START, members[:10], True)[0] if other_guild else 0
    return Seeded(finished, playing, other, roles)
