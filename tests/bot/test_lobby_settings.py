"""The lobby's «Настройки»: the creator picks the preset's variants and the composition follows (issue 5)."""

from __future__ import annotations

from fakediscord import Club, FakeDiscord

from mafiabot.bot import MafiaBot


async def _lobby(fake: FakeDiscord, club: Club, players: int):  # type: ignore[no-untyped-def]
    members = club.players[:players]
    for member in members:
        await fake.join_voice(member, club.voice)
    opened = await fake.slash(members[0], "mafia new", channel=club.text, ruleset="classic")
    lobby_id = opened.message.id
    for member in members[1:]:
        await fake.click(
            member, next(m for m in fake.messages(club.text) if m.id == lobby_id), label="Присоединиться"
        )
    return lambda: next(m for m in fake.messages(club.text) if m.id == lobby_id)


async def test_the_creator_chooses_variants_and_the_composition_follows(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    lobby_message = await _lobby(fake, club, 10)
    assert "Маньяк" not in lobby_message().content
    settings = await fake.click(club.players[0], lobby_message(), label="Настройки")
    assert settings.ephemeral
    select = settings.message
    custom_id = select.components[0]["components"][0]["custom_id"]
    answer = await fake.select(club.players[0], select, custom_id, ["maniac", "doctor"])
    # The variants in the rulebook's words, not their ids (issue 16).
    assert answer.ephemeral and "Маньяк вместо одного честного горожанина" in answer.content, answer.content
    assert "maniac" not in answer.content
    lobby = next(iter(bot.games.lobbies.values()))  # type: ignore[attr-defined]
    assert lobby.options == ("doctor", "maniac")
    await fake.wait_for(
        lambda: "Маньяк" in lobby_message().content, what="the lobby shows the new composition"
    )
    assert "Доктор" in lobby_message().content


async def test_only_the_creator_changes_settings_and_bad_combinations_are_refused(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    lobby_message = await _lobby(fake, club, 7)
    refused = await fake.click(club.players[1], lobby_message(), label="Настройки")
    assert refused.ephemeral and "тот, кто открыл набор, или ведущий сервера" in refused.content
    settings = await fake.click(club.players[0], lobby_message(), label="Настройки")
    custom_id = settings.message.components[0]["components"][0]["custom_id"]
    bad = await fake.select(club.players[0], settings.message, custom_id, ["ninja"])
    lobby = next(iter(bot.games.lobbies.values()))  # type: ignore[attr-defined]
    assert bad.ephemeral
    assert bad.content == (
        "Такое сочетание вариантов не подходит: "
        "Ниндзя играет только в клане якудза: включите вариант «якудза»."
    )
    assert lobby.options == ()
    judges = await fake.select(
        club.players[0], settings.message, custom_id, ["judges_checks_excluded", "lawyer"]
    )
    assert judges.ephemeral and judges.content.startswith(
        "Такое сочетание вариантов не подходит: вариант «С судьями, вариант 1: комиссар, адвокат и ниндзя не "
        "участвуют в игре» играется только вместе с «Игра с судьями"
    )
    assert lobby.options == ()


async def test_a_variant_the_rules_lack_is_named_as_typed(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    """Issue 16: «unknown option (known: …)», English and the preset's ids, reached a Russian server."""
    await fake.join_voice(club.players[0], club.voice)
    refused = await fake.slash(
        club.players[0], "mafia new", channel=club.text, ruleset="classic", options="маньяк"
    )
    assert refused.ephemeral and refused.content == (
        "Не получилось загрузить правила: в этих правилах нет варианта «маньяк»."
    ), refused.content
