"""A first look at a hosted game: lobby, start, deal, and the night muting."""

from __future__ import annotations

from fakediscord import Club, FakeDiscord

from mafiabot.bot import MafiaBot


async def test_lobby_start_and_deal(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    players = club.players[:7]
    for p in players:
        await fake.join_voice(p, club.voice)
    opened = await fake.slash(players[0], "mafia new", channel=club.text, ruleset="classic")
    assert not opened.ephemeral
    lobby_id = opened.message.id

    def lobby_message():
        return next(m for m in fake.messages(club.text) if m.id == lobby_id)

    for p in players[1:]:
        await fake.click(p, lobby_message(), label="Присоединиться")
    start = await fake.click(players[0], lobby_message(), label="Начать игру")
    assert start.callback_type == 6
    games = bot.games  # type: ignore[attr-defined]
    await fake.wait_for(lambda: games.tables, what="the game to start")
    table = next(iter(games.tables.values()))
    await fake.wait_for(lambda: table.panel is not None, what="the game panel")
    await table.settled()
    texts = [m.content for m in fake.messages(club.text)]
    assert any("Рассадка" in t for t in texts), texts
    for p in players:
        assert fake.dms(p), p
    print("\n".join(texts))
