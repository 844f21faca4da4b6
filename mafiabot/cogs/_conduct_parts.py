"""What the conduct commands share: the rulebook's offences, who is a moderator, the confirmation view,
the review button of an automatic foul and the button that lifts a leaving penalty."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from mafiabot.errors import UserFacingError, language_of, refusal, reply_ephemeral
from mafiabot.i18n import DEFAULT, text
from mafiabot.views import MafiaView

if TYPE_CHECKING:
    from mafiabot.game.service import GameService
    from mafiabot.game.table import Table


async def is_moderator(member: discord.Member, games: GameService, table: Table | None = None) -> bool:
    """As in the moderation cog: the table's creator, a member who manages the server, or the host role."""
    if (table is not None and member.id == table.creator_id) or member.guild_permissions.manage_guild:
        return True
    storage = games.storage
    if storage is None:
        return False
    settings = await asyncio.to_thread(storage.guild_settings, member.guild.id)
    role_id = getattr(settings, "host_role_id", None)
    return bool(role_id) and any(r.id == role_id for r in member.roles)


def table_here(games: GameService, interaction: discord.Interaction[Any]) -> Table:
    """The game of this text channel, or of the member's voice channel."""
    table = games.tables.in_text_channel(interaction.channel_id)
    member = interaction.user
    if table is None and isinstance(member, discord.Member) and member.voice and member.voice.channel:
        table = games.tables.get(member.voice.channel.id)
    if table is None:
        raise UserFacingError("mod-no-game")
    return table


def resolve_seat(table: Table, seat: int | None, member: discord.Member | None) -> int:
    if member is not None:
        found = table.session.seat_of(member.id)
        if found is None:
            raise UserFacingError("conduct-not-playing", name=member.display_name)
        return found
    if seat is None:
        raise UserFacingError("conduct-which-seat")
    if not 1 <= seat <= len(table.session.seats):
        raise UserFacingError("conduct-no-seat", seat=seat)
    return seat


class Confirm(MafiaView):
    """«Подтвердить» / «Отмена» for the moderator who asked; the action runs once, on confirmation."""

    def __init__(
        self, moderator_id: int, action: Callable[[], Awaitable[str]], language: str = DEFAULT
    ) -> None:
        super().__init__(timeout=120)
        self.moderator_id = moderator_id
        self.action = action
        self.language = language
        self.confirm.label = text(language, "conduct-confirm")
        self.cancel.label = text(language, "conduct-cancel")

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        await super().interaction_check(interaction)
        if interaction.user.id != self.moderator_id:
            await reply_ephemeral(interaction, text(self.language, "conduct-confirm-not-yours"))
            return False
        return True

    @discord.ui.button(label="-", style=discord.ButtonStyle.danger)  # (labelled in the table's language)
    async def confirm(self, interaction: discord.Interaction[Any], button: discord.ui.Button[Any]) -> None:
        self.stop()
        try:
            said = await self.action()
        except Exception as exc:  # a refusal (the engine's too) takes the question's place
            answer = refusal(exc, self.language)
            if answer is None:
                raise
            said = answer
        await interaction.response.edit_message(content=said, view=None)

    @discord.ui.button(label="-", style=discord.ButtonStyle.secondary)
    async def cancel(self, interaction: discord.Interaction[Any], button: discord.ui.Button[Any]) -> None:
        self.stop()
        await interaction.response.edit_message(content=text(self.language, "conduct-cancelled"), view=None)


Withdraw = Callable[[discord.Interaction[Any], int, str], Awaitable[str]]
WITHDRAW: list[Withdraw] = []  # set by the conduct cog: the review button calls it
# Set by the conduct cog: raises UserFacingError unless the clicker may withdraw this foul of this table
# now, so that a player who is no moderator (or a click on a foul that is not there, or is withdrawn
# already) is told so at once instead of being handed the reason form.
MAY_WITHDRAW: list[Callable[[discord.Interaction[Any], int], Awaitable[object]]] = []


class WithdrawReason(discord.ui.Modal, title="-"):  # (titled in the server's language)
    """The reason form: one text input under a label (Discord's label component; a text input's own label
    is deprecated), both in the server's language."""

    def __init__(self, foul_id: int, language: str = DEFAULT) -> None:
        super().__init__(title=text(language, "conduct-withdraw-button"), timeout=600)
        self.reason: discord.ui.TextInput[Any] = discord.ui.TextInput(custom_id="reason", max_length=200)
        self.add_item(discord.ui.Label(text=text(language, "conduct-withdraw-reason"), component=self.reason))
        self.foul_id = foul_id

    async def on_submit(self, interaction: discord.Interaction[Any], /) -> None:
        try:
            said = await WITHDRAW[0](interaction, self.foul_id, self.reason.value)
        except UserFacingError as exc:
            said = exc.text(language_of(interaction))
        await reply_ephemeral(interaction, said)


class ReviewButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"mafia:foul:(?P<id>\d+)"):
    """«Снять замечание» under an automatic foul; survives a restart (the foul id is in the custom_id)."""

    def __init__(self, foul_id: int, language: str = DEFAULT) -> None:
        super().__init__(
            discord.ui.Button(
                label=text(language, "conduct-withdraw-button"),
                style=discord.ButtonStyle.secondary,
                custom_id=f"mafia:foul:{foul_id}",
            )
        )
        self.foul_id = foul_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ReviewButton:
        return cls(int(match["id"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            await MAY_WITHDRAW[0](interaction, self.foul_id)
        except UserFacingError as exc:
            await reply_ephemeral(interaction, exc.text(language_of(interaction)))
            return
        await interaction.response.send_modal(WithdrawReason(self.foul_id, language_of(interaction)))


Forgive = Callable[[discord.Interaction[Any], int, int], Awaitable[str]]
FORGIVE: list[Forgive] = []  # set by the conduct cog: the button under a leaving announcement calls it


class ForgiveButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"mafia:left:(?P<game>\d+):(?P<seat>\d+)"
):
    """«Снять штраф за уход» under the announcement that a player left voice (D-F4: −5), for a moderator
    who knows the player had a good reason (a dropped connection)."""

    def __init__(self, game_id: int, seat: int, language: str = DEFAULT) -> None:
        super().__init__(
            discord.ui.Button(
                label=text(language, "conduct-forgive-button"),
                style=discord.ButtonStyle.secondary,
                custom_id=f"mafia:left:{game_id}:{seat}",
            )
        )
        self.game_id, self.seat = game_id, seat

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ForgiveButton:
        return cls(int(match["game"]), int(match["seat"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            said = await FORGIVE[0](interaction, self.game_id, self.seat)
        except UserFacingError as exc:
            said = exc.text(language_of(interaction))
        await reply_ephemeral(interaction, said)


def forgive_view(game_id: int, seat: int, language: str = DEFAULT) -> discord.ui.View:
    view = MafiaView(timeout=None)
    view.add_item(ForgiveButton(game_id, seat, language))
    return view


def review_view(foul_id: int, language: str = DEFAULT) -> discord.ui.View:
    view = MafiaView(timeout=None)
    view.add_item(ReviewButton(foul_id, language))
    return view
