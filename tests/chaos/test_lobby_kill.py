"""`mafiabot run` in its own process: it migrates the database once per start, and a lobby outlives a
SIGKILL (issue 12, cause 8): after the restart its message's buttons fill and start the game."""

from __future__ import annotations

from fakediscord import Club, FakeDiscord

from chaos.bot_process import BotProcess
from chaos.outside import Database, OutsideTable

MIGRATION_RUN = "alembic.runtime.migration: Context impl"  # Alembic's first line of every upgrade


async def test_a_lobby_outlives_a_kill_and_each_start_migrates_once(
    fake: FakeDiscord, club: Club, bot_process: BotProcess
) -> None:
    await bot_process.start()
    assert sum(MIGRATION_RUN in line for line in bot_process.lines) == 1, "the database is migrated once"
    table = OutsideTable(fake, club, club.players[:7])
    for p in table.players:
        await fake.join_voice(p, club.voice)
    opened = await fake.slash(table.players[0], "mafia new", channel=club.text, ruleset="classic")
    table.lobby_message_id = opened.message.id
    for p in table.players[1:6]:
        joined = await fake.click(p, table.lobby_message(), label="Присоединиться")
        assert joined.callback_type == 7
    assert "Игроки (6)" in table.lobby_message().content

    await bot_process.kill()
    await bot_process.start()
    assert sum(MIGRATION_RUN in line for line in bot_process.lines) == 1
    assert bot_process.log_has("Reopened 1 lobby(ies)")
    joined = await fake.click(table.players[6], table.lobby_message(), label="Присоединиться")
    assert joined.callback_type == 7 and "Игроки (7)" in table.lobby_message().content
    await fake.click(table.players[0], table.lobby_message(), label="Начать игру")
    await fake.wait_for(
        lambda: "Игра началась" in table.lobby_message().content, timeout=30, what="the start"
    )
    await fake.wait_for(table.panel, timeout=30, what="the panel")
    (game,) = Database(bot_process.database_url).games()
    assert game["status"] == "running"
    assert sorted(table.seats().values()) == sorted(p.id for p in table.players)
