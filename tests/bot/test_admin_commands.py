"""Commands as Discord users expect (issue 16, item 3): the moderators' `/mafia-admin` group, shown only
to those who manage the server; the server's settings it keeps; `/mafia new`'s suggestions; the lobby's
timeout; a moderator's start and cancel; the members' context menu «Мафия: профиль»."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fakediscord import Club, FakeDiscord
from fakediscord import permissions as perms
from fakediscord.driver import Upload
from fakediscord.world import Member, Role
from game_driver import MEMBER_EDIT, Restart, TableDriver

from mafiabot.bot import MafiaBot
from mafiabot.cogs.lobby import MODERATORS_ONLY, LobbyCog
from mafiabot.game.server_settings import server_settings


@pytest.fixture
def manager(fake: FakeDiscord, club: Club) -> Member:
    """A member who manages the server (a role made before the bot connects, as on Discord)."""
    role = fake.world.add_role(club.guild, "Администрация", perms.MANAGE_GUILD)
    member = club.players[9]
    member.roles.append(role.id)
    return member


@pytest.fixture
def host_role(fake: FakeDiscord, club: Club) -> Role:
    role = fake.world.add_role(club.guild, "Ведущий мафии")
    club.players[8].roles.append(role.id)
    return role


async def test_only_server_managers_are_offered_the_settings_and_they_are_kept(
    manager: Member, host_role: Role, bot: MafiaBot, fake: FakeDiscord, club: Club, restart: Restart
) -> None:
    with pytest.raises(LookupError, match="does not offer"):
        await fake.slash(club.players[0], "mafia-admin show", channel=club.text)
    answer = await fake.slash(manager, "mafia-admin host-role", channel=club.text, role=host_role)
    assert answer.ephemeral and f"Роль ведущего: <@&{host_role.id}>" in answer.content
    await fake.slash(manager, "mafia-admin spectators", channel=club.text, muted=False)
    await fake.slash(manager, "mafia-admin timers", channel=club.text, speech=30, night=20)
    await fake.slash(manager, "mafia-admin lobby-timeout", channel=club.text, minutes=15)
    voice = await fake.slash(manager, "mafia-admin voice", channel=club.text, enabled=False, volume=50)
    assert "молчит" in voice.content and "громкость 50 %" in voice.content
    refused = await fake.slash(manager, "mafia-admin timers", channel=club.text)
    assert refused.ephemeral and "Укажите время" in refused.content

    async with restart() as second:
        shown = await fake.slash(manager, "mafia-admin show", channel=club.text)
        text = shown.content
        assert "с микрофоном" in text and "речь 30 с, ночной ход 20 с" in text and "через 15 мин" in text
        settings = await server_settings(second.games.storage, club.id)
        assert settings.host_role_id == host_role.id and not settings.mute_spectators


async def test_the_servers_timers_and_spectators_rule_its_games(
    manager: Member, bot: MafiaBot, fake: FakeDiscord, club: Club, restart: Restart
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    await fake.slash(manager, "mafia-admin spectators", channel=club.text, muted=False)
    await fake.slash(manager, "mafia-admin timers", channel=club.text, night=20)
    spectator = club.players[7]
    await fake.join_voice(spectator, club.voice)
    d = TableDriver(fake, club, bot, club.players[:7])
    await d.seat_everyone()
    await d.open_lobby("classic")
    assert "ночной ход 20 с" in d.lobby_message().content  # (classic has no «speech» timer)
    for p in d.players[1:]:
        await fake.click(p, d.lobby_message(), label="Присоединиться")
    d.without_host_voice()
    await fake.click(d.players[0], d.lobby_message(), label="Начать игру")
    await fake.wait_for(lambda: "Игра началась" in d.lobby_message().content, what="the start")
    d.table = d.games.tables[club.voice.id]
    await d.settled()
    assert d.table.session.ruleset.timers["night_step"] == 20
    assert d.muted_seats() and fake.voice_state(spectator).mute is False  # type: ignore[union-attr]
    # Changed during the game: for the next game, not for this one, even across a restart.
    await fake.slash(manager, "mafia-admin spectators", channel=club.text, muted=True)
    await fake.slash(manager, "mafia-admin timers", channel=club.text, night=40)
    async with restart() as second:
        d.bot = second
        d.table = await fake.wait_for(lambda: d.games.tables.get(club.voice.id), what="the game to resume")
        await d.settled()
        assert d.table.session.ruleset.timers["night_step"] == 20 and d.table.mute_spectators is False
        assert fake.voice_state(spectator).mute is False  # type: ignore[union-attr]
        await fake.slash(d.players[0], "mafia stop", channel=club.text)
        await fake.wait_for(lambda: not d.games.tables, what="the stop")
        await fake.wait_for(lambda: d.muted_seats() == set(), what="every mute given back")


async def test_a_moderator_starts_or_cancels_any_lobby_and_it_goes_on_without_its_creator(
    host_role: Role, bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    bot.games.storage.update_guild_settings(club.id, host_role_id=host_role.id)  # type: ignore[union-attr]
    host, outsider = club.players[8], club.players[9]
    d = TableDriver(fake, club, bot, club.players[:8])
    d.without_host_voice()
    await d.seat_everyone()
    await d.open_lobby("classic")
    for p in d.players[1:]:
        await fake.click(p, d.lobby_message(), label="Присоединиться")
    await fake.join_voice(outsider, club.voice)
    for label in ("Начать игру", "Отменить набор", "Настройки"):
        refused = await fake.click(outsider, d.lobby_message(), label=label)
        assert refused.ephemeral and refused.content == MODERATORS_ONLY
    # The creator leaves: the lobby goes on, the next player in join order holds it.
    await fake.click(d.players[0], d.lobby_message(), label="Выйти")
    lobby = d.games.lobbies[club.voice.id]
    assert (
        lobby.creator_id == d.players[1].id
        and f"ведущий набора: <@{d.players[1].id}>" in d.lobby_message().content
    )
    await fake.click(host, d.lobby_message(), label="Начать игру")  # the host role starts it
    await fake.wait_for(lambda: "Игра началась" in d.lobby_message().content, what="the start")
    d.table = d.games.tables[club.voice.id]
    await d.settled()
    assert d.table.creator_id == d.players[1].id and len(d.table.session.seats) == 7
    stopped = await fake.slash(host, "mafia stop", channel=club.text)
    assert stopped.ephemeral
    await fake.wait_for(lambda: not d.games.tables, what="the stop")
    await fake.wait_for(lambda: d.muted_seats() == set(), what="every mute given back")

    d.players = club.players[:3]
    await d.open_lobby("classic")
    await fake.click(host, d.lobby_message(), label="Отменить набор")
    assert d.lobby_message().content == "Набор отменён." and not d.games.lobbies


async def test_a_lobby_nobody_starts_closes_after_the_servers_timeout(
    manager: Member, bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    await fake.slash(manager, "mafia-admin lobby-timeout", channel=club.text, minutes=5)
    d = TableDriver(fake, club, bot, club.players[:2])
    await d.seat_everyone()
    await d.open_lobby("classic")
    await fake.wait_for(lambda: d.games.lobbies[club.voice.id].message_id, what="the lobby's message")
    cog: Any = bot.get_cog("Lobby")  # (the extension's own copy of the module: not isinstance-able here)
    assert type(cog).__name__ == LobbyCog.__name__
    lobby = d.games.lobbies[club.voice.id]
    assert await cog.close_stale_lobbies(now=lobby.opened_at + 4 * 60) == []
    assert await cog.close_stale_lobbies(now=lobby.opened_at + 5 * 60 + 1) == [lobby]
    assert d.lobby_message().content.startswith("Набор закрыт: игру не начали за 5 мин")
    assert d.lobby_message().buttons() == [] and not d.games.lobbies
    assert d.games.storage is not None and d.games.storage.open_lobbies() == []
    reopened = await fake.slash(d.players[1], "mafia new", channel=club.text, ruleset="classic")
    assert not reopened.ephemeral  # the channel is free again
    await fake.wait_for(lambda: d.games.lobbies[club.voice.id].message_id, what="the lobby's message")


async def test_new_suggests_the_rules_and_their_variants_as_one_types(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    player = club.players[0]
    rules = await fake.autocomplete(player, "mafia new", channel=club.text, focused="ruleset", ruleset="горо")
    assert [c["value"] for c in rules] == ["city"] and "игроков" in rules[0]["name"], rules
    every = await fake.autocomplete(player, "mafia new", channel=club.text, focused="ruleset", ruleset="")
    assert {"classic", "simple", "city"} <= {c["value"] for c in every}
    first = await fake.autocomplete(
        player, "mafia new", channel=club.text, focused="options", ruleset="classic", options="man"
    )
    assert [c["value"] for c in first] == ["maniac"] and first[0]["name"].startswith("maniac — ")
    second = await fake.autocomplete(
        player, "mafia new", channel=club.text, focused="options", ruleset="classic", options="maniac, "
    )
    values = [c["value"] for c in second]
    assert values and all(v.startswith("maniac, ") for v in values) and "maniac, maniac" not in values
    await fake.join_voice(player, club.voice)
    unknown = await fake.slash(player, "mafia new", channel=club.text, ruleset="шахматы")
    assert unknown.ephemeral and "Таких правил нет" in unknown.content


async def test_a_members_context_menu_shows_his_profile_privately(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    asker, target = club.players[0], club.players[3]
    answer = await fake.user_command(asker, "Мафия: профиль", target=target, channel=club.text)
    assert answer.ephemeral and target.user.username in answer.content, answer.content
    assert fake.messages(club.text) == []


async def test_a_servers_own_variant_is_uploaded_checked_and_offered(
    manager: Member, bot: MafiaBot, fake: FakeDiscord, club: Club, restart: Restart
) -> None:
    def upload(text: str, name: str = "club.toml") -> Upload:
        return Upload(name, text.encode("utf-8"))

    club_rules = Path("examples/club-variant.toml").read_text(encoding="utf-8")
    refusals = {
        "not toml": (upload("extends = ", "club.toml"), "не читается как TOML"),
        "a path": (
            upload(club_rules.replace('extends = "classic"', 'extends = "/etc/passwd"')),
            "продолжать",
        ),
        "a bundled id": (upload(club_rules.replace('id = "classic-club"', 'id = "classic"')), "занят"),
        "bad rules": (upload(club_rules.replace("vote = 10", 'vote = "десять"')), "не проходят проверку"),
        "no .toml": (upload(club_rules, "club.txt"), "Нужен файл правил .toml"),
    }
    for what, (file, expected) in refusals.items():
        refused = await fake.slash(manager, "mafia-admin variant", channel=club.text, file=file)
        assert refused.ephemeral and expected in refused.content, (what, refused.content)
    assert bot.games.storage is not None
    assert (await server_settings(bot.games.storage, club.id)).variants == ()

    saved = await fake.slash(manager, "mafia-admin variant", channel=club.text, file=upload(club_rules))
    assert saved.ephemeral and "`classic-club`" in saved.content, saved.content
    async with restart() as second:
        d = TableDriver(fake, club, second, club.players[:6])
        suggested = await fake.autocomplete(
            d.players[0], "mafia new", channel=club.text, focused="ruleset", ruleset="клуб"
        )
        assert [c["value"] for c in suggested] == ["classic-club"]
        await d.seat_everyone()
        await d.open_lobby("classic-club")
        assert (
            "(`classic-club`)" in d.lobby_message().content
            and "обсуждение 180 с" in d.lobby_message().content
        )
        busy = await fake.slash(
            manager, "mafia-admin variant-remove", channel=club.text, variant="classic-club"
        )
        assert busy.ephemeral and "идёт набор" in busy.content
        await fake.click(d.players[0], d.lobby_message(), label="Отменить набор")
        removed = await fake.slash(
            manager, "mafia-admin variant-remove", channel=club.text, variant="classic-club"
        )
        assert removed.ephemeral and "удалён" in removed.content
        assert (await server_settings(second.games.storage, club.id)).variants == ()
