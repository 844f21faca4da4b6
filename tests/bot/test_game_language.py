"""The server's language (issue 16): `/mafia-admin language` offers Russian and English, is kept per
server, and each new lobby and game takes it; a game that has started keeps its language to its end,
across a restart, whatever the server changes to meanwhile."""

from __future__ import annotations

import re

import pytest
from fakediscord import Club, FakeDiscord
from fakediscord import permissions as perms
from fakediscord.world import Member
from game_driver import MEMBER_EDIT, Restart, TableDriver

from mafiabot.bot import MafiaBot
from mafiabot.game.server_settings import server_settings

CYRILLIC = re.compile("[А-Яа-яЁё]")


@pytest.fixture
def manager(fake: FakeDiscord, club: Club) -> Member:
    role = fake.world.add_role(club.guild, "Администрация", perms.MANAGE_GUILD)
    member = club.players[9]
    member.roles.append(role.id)
    return member


async def test_the_language_command_offers_russian_and_english(
    manager: Member, bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    synced = [c for scope in fake.commands.values() for c in scope]
    command = next(c for c in synced if c["name"] == "mafia-admin")
    language = next(o for o in command["options"] if o["name"] == "language")
    choices = {c["value"]: c["name"] for c in language["options"][0]["choices"]}
    assert choices == {"ru": "Русский", "en": "English"}
    saved = await fake.slash(manager, "mafia-admin language", channel=club.text, language="en")
    assert saved.ephemeral and saved.content.startswith("Language saved")
    assert "Language: English" in saved.content and not CYRILLIC.search(saved.content), saved.content
    refused = await fake.slash(manager, "mafia-admin variant-remove", channel=club.text, variant="mine")
    assert refused.content == "The server has no such variant (its own variants: none).", refused.content
    help_text = await fake.slash(manager, "mafia help", channel=club.text)
    assert help_text.content.startswith("**How to start a game**") and not CYRILLIC.search(
        help_text.content.replace("Мафия: профиль", "")  # (the context menu's own name, as Discord shows it)
    )
    rules = await fake.slash(manager, "mafia rules", channel=club.text, preset="city")
    assert rules.content.startswith("**City Mafia** (`city`), 7 to ") and not CYRILLIC.search(rules.content)
    back = await fake.slash(manager, "mafia-admin language", channel=club.text, language="ru")
    assert back.content.startswith("Язык сохранён") and "Язык: Русский" in back.content
    settings = await server_settings(bot.games.storage, club.id)
    assert settings.language == "ru"


async def test_a_new_game_takes_the_servers_language_and_keeps_it(
    manager: Member, bot: MafiaBot, fake: FakeDiscord, club: Club, restart: Restart
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    await fake.slash(manager, "mafia-admin language", channel=club.text, language="en")
    d = TableDriver(fake, club, bot, club.players[:7])
    d.without_host_voice()
    await d.seat_everyone()
    await d.open_lobby("classic")
    lobby = d.lobby_message()
    assert lobby.content.startswith("**A game of Mafia is gathering** — rules: Classic Mafia (`classic`)")
    assert not CYRILLIC.search(lobby.content), lobby.content
    assert [b["label"] for b in lobby.buttons()][:2] == ["Join", "Leave"]
    menu = await fake.click(d.players[0], lobby, label="Settings")  # the variants: words, not ids
    options = next(c for c in menu.message.items() if c["type"] == 3)["options"]
    labels = [o["label"] for o in options]
    assert "The golden minute: once a game a candidate may speak one more minute" in labels, labels
    assert not [x for x in labels if "_" in x or CYRILLIC.search(x) or "D-" in x], labels
    refused = await fake.click(d.players[0], lobby, label="Join")  # the creator is on the list already
    assert refused.ephemeral and refused.content == "You are on the list of players already."
    for p in d.players[1:]:
        await fake.click(p, d.lobby_message(), label="Join")
    await fake.click(d.players[0], d.lobby_message(), label="Start the game")
    await fake.wait_for(lambda: "The game has started." in d.lobby_message().content, what="the start")
    d.table = d.games.tables[club.voice.id]
    await d.settled()
    assert d.table.session.language == "en" and d.panel().text.startswith("**Day 1** — ")

    # The server turns Russian: the running game goes on in English, after a restart too.
    await fake.slash(manager, "mafia-admin language", channel=club.text, language="ru")
    await d.pass_speech()
    assert d.table.session.language == "en"
    async with restart() as second:
        d.bot = second
        d.table = await fake.wait_for(lambda: d.games.tables.get(club.voice.id), what="the game to resume")
        await d.settled()
        assert d.table.session.language == "en" and d.panel().text.startswith("**Day 1** — ")
        stopped = await fake.slash(d.players[0], "mafia stop", channel=club.text)
        assert stopped.ephemeral
        await fake.wait_for(lambda: not d.games.tables, what="the stop")
        # The next lobby is the server's language now.
        await d.open_lobby("classic")
        assert d.lobby_message().content.startswith("**Набор в игру «Мафия»**")
