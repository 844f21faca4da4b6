"""Components and errors: buttons reach their callbacks, selects and modals round-trip, errors are
answered ephemerally by the global handler."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands
from fakediscord import Club, FakeDiscord
from game_driver import TableDriver

from mafiabot.bot import MafiaBot
from mafiabot.errors import GENERIC_FAILURE, UserFacingError
from mafiabot.presets import PRESETS, PRESETS_BY_ID
from mafiabot.views import MafiaView


async def test_rules_buttons_reach_their_callback(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    rules = await fake.slash(club.players[0], "mafia rules", channel=club.text)
    assert rules.ephemeral
    assert [button["label"] for button in rules.message.buttons()] == [p.title for p in PRESETS]

    city = PRESETS_BY_ID["city"]
    answer = await fake.click(club.players[0], rules.message, label=city.title)
    assert answer.ephemeral
    assert city.summary in answer.content


async def test_rules_with_a_preset_option(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    answer = await fake.slash(club.players[0], "mafia rules", channel=club.text, preset="blood")
    assert answer.ephemeral
    assert PRESETS_BY_ID["blood"].summary in answer.content
    assert answer.message.components == []
    # The title and the player counts are the preset's own (its TOML and composition table).
    simple = await fake.slash(club.players[0], "mafia rules", channel=club.text, preset="simple")
    assert simple.content.startswith("**Мафия с путаной и маньяком** (`simple`), от 8 до 16 игроков.")
    classic = await fake.slash(club.players[0], "mafia rules", channel=club.text, preset="classic")
    assert "от 7 до 15 игроков; с вариантом «Игры в уменьшенном составе: 2, 3 и 4–6 игроков»: от 2 до 6" in (
        classic.content
    )
    with pytest.raises(LookupError, match="choices"):
        await fake.slash(club.players[0], "mafia rules", channel=club.text, preset="poker")


class Seats(commands.Cog):
    def __init__(self) -> None:
        self.seen: dict[str, Any] = {}

    @app_commands.command(name="seat", description="seat a player")
    async def seat(
        self,
        interaction: discord.Interaction[Any],
        player: discord.Member,
        number: app_commands.Range[int, 1, 20],
        table: discord.VoiceChannel,
        role: discord.Role | None = None,
        note: str = "",
    ) -> None:
        self.seen = {"player": player, "number": number, "table": table, "role": role, "note": note}
        await interaction.response.send_message(f"{player.display_name}: место {number}", ephemeral=True)


async def test_slash_command_options_of_every_kind(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    seats = Seats()
    await bot.add_cog(seats)
    await bot.sync_commands()

    answer = await fake.slash(
        club.players[0],
        "mafia seat",
        channel=club.text,
        player=club.players[3],
        number=7,
        table=club.voice,
        role=club.bot_role,
        note="у окна",
    )
    assert answer.content == "player4: место 7"
    assert seats.seen["player"].id == club.players[3].id
    assert seats.seen["table"].id == club.voice.id and seats.seen["role"].id == club.bot_role.id
    assert (seats.seen["number"], seats.seen["note"]) == (7, "у окна")


class Seating(discord.ui.View):
    """A plain (non-persistent) view: discord.py finds it by the id of the message it was sent with."""

    def __init__(self) -> None:
        super().__init__(timeout=30)
        self.picked: list[str] = []
        self.names: dict[str, str] = {}

    @discord.ui.select(
        custom_id="seat",
        options=[discord.SelectOption(label=f"Место {n}", value=str(n)) for n in range(1, 4)],
        max_values=2,
    )
    async def seat(self, interaction: discord.Interaction[Any], select: discord.ui.Select[Any]) -> None:
        self.picked = list(select.values)
        await interaction.response.edit_message(content=f"Выбраны места: {', '.join(self.picked)}")

    @discord.ui.button(label="Представиться", custom_id="introduce")
    async def introduce(self, interaction: discord.Interaction[Any], button: discord.ui.Button[Any]) -> None:
        await interaction.response.send_modal(Introduction(self))


class Introduction(discord.ui.Modal, title="Знакомство"):
    nickname: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Имя за столом", custom_id="nickname")

    def __init__(self, view: Seating) -> None:
        super().__init__()
        self.view = view

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        self.view.names[str(interaction.user.id)] = self.nickname.value
        await interaction.response.send_message(
            f"Приятно познакомиться, {self.nickname.value}!", ephemeral=True
        )


async def test_select_and_modal_round_trip(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    view = Seating()
    channel = bot.get_channel(club.text.id)
    assert isinstance(channel, discord.TextChannel)
    sent = await channel.send("Рассадка", view=view)
    message = next(m for m in fake.messages(club.text) if m.id == sent.id)
    player = club.players[1]

    picked = await fake.select(player, message, "seat", ["1", "3"])
    assert picked.callback_type == 7  # UPDATE_MESSAGE
    assert view.picked == ["1", "3"]
    assert message.content == "Выбраны места: 1, 3"

    opened = await fake.click(player, message, custom_id="introduce")
    assert opened.modal is not None and opened.modal["title"] == "Знакомство"
    submitted = await fake.submit_modal(player, opened, {"nickname": "Дон Корлеоне"})
    assert submitted.content == "Приятно познакомиться, Дон Корлеоне!"
    assert view.names == {str(player.id): "Дон Корлеоне"}
    view.stop()


class Failing(commands.Cog):
    @app_commands.command(name="refuse", description="refuses with a message for the player")
    async def refuse(self, interaction: discord.Interaction[Any]) -> None:
        raise UserFacingError("Игра уже идёт.")

    @app_commands.command(name="crash", description="fails like a bug would")
    async def crash(self, interaction: discord.Interaction[Any]) -> None:
        raise RuntimeError("a bug")


async def test_errors_become_ephemeral_replies(
    bot: MafiaBot, fake: FakeDiscord, club: Club, logged_errors: list[logging.LogRecord]
) -> None:
    subcommands = {c.name for c in bot.mafia.commands}
    await bot.add_cog(Failing())
    await bot.sync_commands()
    player = club.players[0]

    refused = await fake.slash(player, "mafia refuse", channel=club.text)
    assert refused.ephemeral and refused.content == "Игра уже идёт."
    assert not logged_errors

    crashed = await fake.slash(player, "mafia crash", channel=club.text)
    assert crashed.ephemeral and crashed.content == GENERIC_FAILURE
    assert [r.getMessage() for r in logged_errors] == ["Command failed"]
    assert getattr(logged_errors[0], "guild_id", None) == club.id
    logged_errors.clear()

    await bot.remove_cog("Failing")
    assert {c.name for c in bot.mafia.commands} == subcommands


@pytest.mark.club(guild_allow_list=True)
async def test_allow_list_syncs_commands_to_the_guild_only(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    assert None not in fake.commands
    assert {c["name"] for c in fake.commands[club.id]} == {"mafia", "mafia-admin", "Мафия: профиль"}
    answer = await fake.slash(club.players[0], "mafia help", channel=club.text)
    assert answer.ephemeral


class Presence(MafiaView):
    def __init__(self) -> None:
        super().__init__(timeout=60)
        self.answered: list[tuple[int, bool]] = []  # (user id, clicked in a guild?)

    @discord.ui.button(label="Я здесь", custom_id="here")
    async def here(self, interaction: discord.Interaction[Any], button: discord.ui.Button[Any]) -> None:
        self.answered.append((interaction.user.id, interaction.guild is not None))
        await interaction.response.send_message("Отмечено.")


async def test_a_button_in_a_dm(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    player = club.players[4]
    user = await bot.fetch_user(player.id)
    view = Presence()
    await user.send("Вы в игре? Нажмите кнопку.", view=view)
    dm = await fake.wait_for_dm(player)

    answer = await fake.click(player, dm, label="Я здесь")
    assert answer.content == "Отмечено."
    assert view.answered == [(player.id, False)]
    assert [m.content for m in fake.dms(player)] == ["Вы в игре? Нажмите кнопку.", "Отмечено."]
    with pytest.raises(LookupError, match="guild-only"):
        await fake.slash(player, "mafia help", channel=fake.world.channels[dm.channel_id])


async def test_a_game_click_goes_to_the_game_without_discord_pys_view(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    """Issue 18: a click on a game's control goes from INTERACTION_CREATE to the game (discord.py would
    build a View of the clicked panel first, ≈ 40 µs, only to find the item); an interaction listener
    still hears it, and the click does what it did. Of the clicked message the interaction keeps what
    the game reads, its id, without the panel's component tree discord.py would build (≈ 20 µs)."""
    d = TableDriver(fake, club, bot, club.players[:7])
    await d.start("classic")
    heard = asyncio.create_task(bot.wait_for("interaction"))
    await asyncio.sleep(0)
    direct, speaker, panel = bot.game_clicks_direct, d.state.step.seat, d.panel()
    assert panel.components
    await d.pass_speech()
    assert bot.game_clicks_direct == direct + 1
    interaction: discord.Interaction = await asyncio.wait_for(heard, timeout=5)
    assert interaction.user.id == d.member(speaker).id
    assert interaction.message is not None and interaction.message.id == panel.id
    assert interaction.message.components == []
    assert d.state.step.seat != speaker


async def test_without_an_interaction_listener_the_game_gets_the_clicked_message_by_its_id_alone(
    bot: MafiaBot, fake: FakeDiscord, club: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 18: with nobody listening for interactions, a game's click carries the clicked message as a
    PartialMessage of its channel (its id, all the game reads; discord.py's Message of it was ≈ 7 µs a
    click), and the click's answer still carries the panel's change (Discord's UPDATE_MESSAGE)."""
    d = TableDriver(fake, club, bot, club.players[:7])
    await d.start("classic")
    seen: list[Any] = []
    click = bot.games.click

    def recorded(interaction: discord.Interaction, *args: Any) -> Any:
        seen.append(interaction.message)
        return click(interaction, *args)

    monkeypatch.setattr(bot.games, "click", recorded)
    panel, speaker = d.panel(), d.state.step.seat
    record = await d.pass_speech()
    assert record.callback_type == 7  # the panel's change is the answer
    assert d.state.step.seat != speaker
    [message] = seen
    assert type(message) is discord.PartialMessage and message.id == panel.id
    assert message.channel.id == panel.channel_id


async def test_a_game_click_that_fails_is_answered_and_logged_without_what_was_picked(
    bot: MafiaBot,
    fake: FakeDiscord,
    club: Club,
    logged_errors: list[logging.LogRecord],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A bug behind a game's control (here the game service itself failing) is answered privately as any
    view's failure is, and the log line names the action only: not the custom id's argument, not the
    values picked (a night target can be either)."""
    d = TableDriver(fake, club, bot, club.players[:7])
    await d.start("classic")
    log = len(d.table.session.log)

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a bug")

    monkeypatch.setattr(bot.games, "click", broken)
    # A select of the game's with a value picked, as a night prompt's would be (forged onto the panel's
    # message: the failure comes before anything reads it).
    custom_id = f"mafia:g:{d.table.game_id}:{d.table.session.serial}:nominate:7"
    channel = fake.world.channels[d.panel().channel_id]
    data = {"custom_id": custom_id, "component_type": 3, "values": ["5"]}
    answer = await fake._interact(d.member(1), channel, 3, data, message=d.panel(), wait=True)
    assert answer.ephemeral and answer.content == GENERIC_FAILURE, answer
    (record,) = logged_errors
    assert record.getMessage() == "A game's click failed: nominate", record.getMessage()
    logged_errors.clear()
    assert len(d.table.session.log) == log
