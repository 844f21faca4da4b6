"""Ratings through the local Discord: a finished game is rated, and the profile, the leaderboard, the
history, the stored game, the chart and the season's CSV show what is stored."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from conduct_helpers import Game
from fakediscord import Club, FakeDiscord
from fakediscord import permissions as perms
from fakediscord.world import Member
from PIL import Image
from protocol_check import assert_record_replays

from mafiabot.bot import MafiaBot
from mafiabot.storage import SeatAssignment, SeatResult, Storage


@pytest.fixture
def host(club: Club, fake: FakeDiscord) -> Member:
    """player10 manages the server: a moderator outside any game (made before the bot connects)."""
    role = fake.world.add_role(club.guild, "Ведущий", perms.MANAGE_GUILD)
    member = club.players[9]
    member.roles.append(role.id)
    return member


def storage_of(bot: MafiaBot) -> Storage:
    storage: Storage | None = bot.games.storage  # type: ignore[attr-defined]
    assert storage is not None
    return storage


@pytest.fixture
def season(club: Club, tmp_path: Path) -> list[int]:
    """Two finished, rated games in the bot's database before the bot starts (so that nothing of them is
    running when it looks for games to resume): players 1–8, players 1–2 mafia, the town wins; then
    players 5–12, players 5–6 mafia, the mafia wins."""
    storage = Storage.open(f"sqlite:///{tmp_path}/bot.db")
    try:
        users = club.players
        return [
            _stored_game(storage, club, users[:8], black={1, 2}, winner="town"),
            _stored_game(storage, club, users[4:12], black={1, 2}, winner="mafia"),
        ]
    finally:
        storage.close()


def _stored_game(storage: Storage, club: Club, users: list[Member], black: set[int], winner: str) -> int:
    at = datetime(2026, 11, 1, 20, 0, tzinfo=UTC) + timedelta(days=len(storage.recent_games(club.id)))
    game = storage.create_game(
        guild_id=club.id, voice_channel_id=club.voice.id, text_channel_id=club.text.id,
        ruleset_id="classic", seed=1, at=at,
    )  # fmt: skip
    assert game.id is not None
    seats = []
    for seat, user in enumerate(users, start=1):
        side = "mafia" if seat in black else "town"
        role = "mafioso" if side == "mafia" else "civilian"
        seats.append(SeatAssignment(seat, user.id, user.user.username, role, side))
    storage.set_participants(game.id, seats)
    results = [SeatResult(s.seat, "win" if s.side_id == winner else "loss") for s in seats]
    storage.finish_game(game.id, winners=[winner], results=results, at=at + timedelta(hours=1))
    storage.rate_game(game.id, at=at + timedelta(hours=1))
    return game.id


def png_size(data: bytes, title: str | None = None) -> tuple[int, int]:
    """Check a PNG (Pillow reads and verifies it) and the title in its metadata; its size."""
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    if title is not None:
        assert image.info.get("Title") == title
    size = image.size
    image.verify()
    return size


async def test_a_finished_game_is_rated_and_its_record_shown(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    g = Game(fake, club, bot)
    table = await g.start("city")
    await g.skip_until(lambda s: s.phase == "day")
    mafia = next(x for x in g.state.living() if g.state.ruleset.roles[g.state.role_of(x)].side == "mafia")
    asked = await g.command("conduct penalty", reason="arranged_victory", seat=mafia)
    assert asked.ephemeral and "Подтверждаете?" in asked.content
    await fake.click(g.moderator, asked.message, label="Подтвердить")
    assert asked.message.content == "Победа присуждена противоположным командам."
    rated = await fake.wait_for_message(club.text, lambda m: m.content.startswith("**Рейтинг за игру**"))
    await fake.wait_for_message(club.text, lambda m: m.content == "Протокол игры:")
    await fake.wait_for(lambda: not g.games.tables, what="the table to close")
    # City, seven players: five red, two black; a new server has no side offset, so E = ½ for both,
    # K = 32: red 32 · ½ · (7/2) / 5 = +11.2 each, black 32 · (−½) · (7/2) / 2 = −28.0 each.
    for seat in range(1, 8):
        red = g.state.ruleset.roles[g.state.role_of(seat)].side == "town"
        expected = "+1.0, Эло +11.2" if red else "+0.0, Эло -28.0"
        assert f"№{seat} {table.session.name_of(seat)}: {expected}" in rated.content, rated.content
    town = next(
        x for x in range(1, 8) if x != mafia and g.state.ruleset.roles[g.state.role_of(x)].side == "town"
    )
    player = g.member(town)

    profile = await fake.slash(g.players[1], "mafia rating", channel=club.text, player=player)
    assert f"**{player.user.username}** — игр: 1, побед: 1" in profile.content, profile.content
    assert "Очки сезона: 1.0 · Эло за красных: 1511 · Эло за чёрных: 1500" in profile.content
    assert "Победы по сторонам: мирные 1/1" in profile.content
    role = g.state.ruleset.roles[g.state.role_of(town)].display
    assert f"Победы по ролям: {role} 1/1" in profile.content, profile.content
    assert f"#{table.game_id} " in profile.content

    history = await fake.slash(player, "mafia history", channel=club.text)
    assert history.ephemeral
    assert f"#{table.game_id} " in history.content and "· победа · +1.0" in history.content

    record = await fake.slash(player, "mafia game", channel=club.text, game_id=table.game_id)
    assert f"**Игра #{table.game_id}** · city" in record.content
    assert "победители: мирные" in record.content
    assert f"№{mafia} <@{g.member(mafia).id}> — " in record.content
    text = record.message.files[f"mafia-game-{table.game_id}.txt"].decode()
    assert f"Игра #{table.game_id} · " in text
    assert f"№{mafia} {g.member(mafia).user.username} — " in text
    assert "За нарушение правил клуба победа присуждается" in text, text[-500:]
    # Beside the protocol, the game record: it replays to the game's events (issue 15).
    assert_record_replays(record.message.files[f"mafia-game-{table.game_id}.json"], table.session)

    unknown = await fake.slash(player, "mafia game", channel=club.text, game_id=table.game_id + 100)
    assert unknown.content == f"Игры #{table.game_id + 100} на этом сервере нет."


@pytest.mark.club(players=12)
async def test_a_stored_game_names_players_the_bot_has_not_met(
    season: list[int], bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    """No member chunking at start: the players of a game played before, out of voice now, are not in
    the bot's cache; the game's record names them by the names stored with the game, not by ids."""
    game_id = season[1]
    record = await fake.slash(club.players[0], "mafia game", channel=club.text, game_id=game_id)
    text = record.message.files[f"mafia-game-{game_id}.txt"].decode()
    for seat, user in enumerate(club.players[4:12], start=1):
        assert f"№{seat} {user.user.username}" in text, text[:400]
        assert str(user.id) not in text


@pytest.mark.club(players=12)
async def test_leaderboard_pages_and_seasons(
    season: list[int], bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    players = club.players
    top = await fake.slash(players[0], "mafia top", channel=club.text)
    lines = top.content.splitlines()
    assert lines[0] == "**Очки сезона · Сезон 1** (страница 1 из 2)"
    assert len(lines) == 11
    # player5 and player6: town in game 1 (won), mafia in game 2 (won).
    assert lines[1:3] == ["1. player5 — 2.0 (2 игры)", "2. player6 — 2.0 (2 игры)"]
    # Then 1.0 with two games before 1.0 with one; ties go to the older account.
    assert lines[3:7] == [
        "3. player7 — 1.0 (2 игры)",
        "4. player8 — 1.0 (2 игры)",
        "5. player3 — 1.0 (1 игра)",
        "6. player4 — 1.0 (1 игра)",
    ]
    await fake.click(players[0], top.message, label="▶")
    rest = top.message.content.splitlines()
    assert rest[0] == "**Очки сезона · Сезон 1** (страница 2 из 2)"
    assert rest[1:] == ["11. player11 — 0.0 (1 игра)", "12. player12 — 0.0 (1 игра)"]
    assert top.message.component(label="▶")["disabled"] is True
    await fake.click(players[0], top.message, label="◀")
    assert top.message.content.splitlines()[1] == "1. player5 — 2.0 (2 игры)"

    elo = await fake.slash(players[0], "mafia top", channel=club.text, track="elo_black")
    assert elo.content.splitlines()[0] == "**Эло за чёрных · Сезон 1** (страница 1 из 1)"
    assert len(elo.content.splitlines()) == 1 + 4  # four players have played black

    missing = await fake.slash(players[0], "mafia top", channel=club.text, season=9)
    assert missing.content == "Сезона 9 нет."


@pytest.mark.club(players=12)
async def test_the_profile_carries_a_png_chart_of_the_rating(
    season: list[int], bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    storage = storage_of(bot)
    player = club.players[6]  # player7: town in both games, won the first, lost the second
    answer = await fake.slash(player, "mafia rating", channel=club.text, track="elo_red")
    # Answered «думает…» at once (type 5), the chart drawn after: drawing may outlast Discord's 3 s.
    assert answer.callback_type == 5
    values = [v for _, v in storage.rating_history(club.id, player.id, track="elo_red")]
    assert len(values) == 3 and values[0] == 1500 and values[1] > 1500 > values[2]
    assert answer.content.startswith("**player7** — игр: 2, побед: 1\n"), answer.content
    assert answer.content.endswith(
        f"График — Эло за красных: сейчас {values[2]:.0f}, наименьший {values[2]:.0f}, "
        f"наибольший {values[1]:.0f}, изменений: 2"
    ), answer.content
    ((name, data),) = answer.message.files.items()
    assert name == f"rating-{player.id}-elo_red.png"
    assert png_size(data, title="player7 — Эло за красных") == (800, 400)
    points = await fake.slash(player, "mafia rating", channel=club.text)
    assert points.content.endswith(
        "График — Очки сезона: сейчас 1.0, наименьший 0.0, наибольший 1.0, изменений: 1"
    )
    newcomer = await fake.add_player(club, "newcomer")
    empty = await fake.slash(newcomer, "mafia rating", channel=club.text)
    assert empty.content.startswith("**newcomer** — игр: 0, побед: 0")
    assert empty.content.endswith("изменений: 0")
    empty_chart = empty.message.files[f"rating-{newcomer.id}-points.png"]
    assert png_size(empty_chart, "newcomer — Очки сезона") == (800, 400)


@pytest.mark.club(players=12)
async def test_season_csv_for_moderators_only(
    season: list[int], host: Member, bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    storage = storage_of(bot)
    players = club.players
    refused = await fake.slash(players[0], "mafia season export", channel=club.text)
    assert refused.ephemeral and refused.content.startswith("Это для ведущих")
    assert not refused.message.files
    exported = await fake.slash(host, "mafia season export", channel=club.text)
    assert exported.ephemeral
    text = exported.message.files["mafia-season-current.csv"].decode()
    assert text == storage.export_season_csv(club.id)
    rows = list(csv.DictReader(io.StringIO(text)))
    assert len(rows) == 12
    first = rows[0]
    assert (first["rank"], first["display_name"], first["games"], first["wins"], first["points"]) == (
        "1",
        "player5",
        "2",
        "2",
        "2.00",
    )
    assert (first["red_games"], first["black_games"], first["fouls"]) == ("1", "1", "0")
    assert [r["display_name"] for r in rows[-2:]] == ["player11", "player12"]


@pytest.mark.club(players=12)
async def test_moderator_extra_points_within_the_cap(
    season: list[int], host: Member, bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    storage = storage_of(bot)
    player = club.players[2]  # player3: one game, a win

    async def bonus(by: Member, game: int, points: float, reason: str) -> str:
        answer = await fake.slash(
            by,
            "mafia season bonus",
            channel=club.text,
            game_id=game,
            player=player,
            points=points,
            reason=reason,
        )
        return answer.content

    assert (
        await bonus(host, season[0], 0.3, "Лучший ход") == f"player3: +0.3 за игру #{season[0]} (Лучший ход)."
    )
    assert storage.player_profile(club.id, player.id).points == pytest.approx(1.3)
    assert (
        await bonus(host, season[0], 0.3, "Ещё") == "За одну игру можно добавить игроку не больше 0.5 очка."
    )
    assert await bonus(host, season[1], 0.2, "?") == f"player3 не играл в игре #{season[1]}."
    assert (await bonus(player, season[0], 0.2, "сам себе")).startswith("Это для ведущих")
    assert storage.player_profile(club.id, player.id).points == pytest.approx(1.3)


@pytest.mark.club(players=12)
async def test_a_new_season_keeps_the_old_one(
    season: list[int], host: Member, bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    refused = await fake.slash(club.players[0], "mafia season new", channel=club.text)
    assert refused.content.startswith("Это для ведущих")
    started = await fake.slash(host, "mafia season new", channel=club.text, name="Весна")
    assert started.content.startswith("Начат новый сезон: Весна.")
    fresh = await fake.slash(club.players[0], "mafia top", channel=club.text)
    assert fresh.content.splitlines() == [
        "**Очки сезона · Весна** (страница 1 из 1)",
        "Пока никого: сыграйте рейтинговую игру.",
    ]
    old = await fake.slash(club.players[0], "mafia top", channel=club.text, season=1)
    assert old.content.splitlines()[1] == "1. player5 — 2.0 (2 игры)"
