"""Club conduct (RULESETS.md 9, D-F1…D-F6): fouls, their withdrawal, immediate removal and the team
penalty, given by moderators; the automatic fouls the bot can see. The engine applies the thresholds;
this cog records who gave what and when, and announces it."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import engine
from engine import queries
from mafiabot.bot import MafiaBot
from mafiabot.cogs._conduct_parts import (
    FORGIVE,
    MAY_WITHDRAW,
    WITHDRAW,
    Confirm,
    ForgiveButton,
    ReviewButton,
    is_moderator,
    resolve_seat,
    table_here,
)
from mafiabot.cogs._conduct_record import FoulRecords
from mafiabot.errors import UserFacingError
from mafiabot.game.table import Table
from mafiabot.i18n import text
from mafiabot.offences import (
    AUTO_REASONS,
    FOUL_REASONS,
    PENALTY_REASONS,
    REMOVAL_REASONS,
    reason_shown,
    stored_reason_shown,
)
from mafiabot.storage.models import Foul

log = logging.getLogger(__name__)

Seat = app_commands.Range[int, 1, 20]


def _choices(table: dict[str, str]) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=label, value=key) for key, label in table.items()]


class ConductCog(commands.Cog, FoulRecords, name="Conduct"):
    def __init__(self, bot: MafiaBot) -> None:
        self.bot = bot
        # foul id -> (game id, the command of the session's log that gave it): what a withdrawal takes
        # out of a running game.
        self.commands_of: dict[int, tuple[int, engine.Command]] = {}
        self.text_fouls: dict[int, bool] = {}  # game id -> automatic fouls for messages (D-F2)
        self.withdrawing: set[int] = set()  # foul ids whose withdrawal is under way (a double submit)
        self.forgiving: set[tuple[int, int]] = set()

    async def cog_load(self) -> None:
        self.games.event_hooks.append(self.on_game_events)
        self.games.restore_hooks.append(self.on_game_restored)
        WITHDRAW[:] = [self.withdraw]
        MAY_WITHDRAW[:] = [self._withdrawable]
        FORGIVE[:] = [self.forgive]
        self.bot.add_dynamic_items(ReviewButton, ForgiveButton)

    async def cog_unload(self) -> None:
        if self.on_game_events in self.games.event_hooks:
            self.games.event_hooks.remove(self.on_game_events)
        if self.on_game_restored in self.games.restore_hooks:
            self.games.restore_hooks.remove(self.on_game_restored)

    async def _moderated_table(self, interaction: discord.Interaction[Any]) -> Table:
        table = table_here(self.games, interaction)
        member = interaction.user
        if not isinstance(member, discord.Member) or not await is_moderator(member, self.games, table):
            raise UserFacingError("conduct-moderators")
        if table.session.over:
            raise UserFacingError("conduct-game-over")
        return table

    async def _withdrawable(self, interaction: discord.Interaction[Any], foul_id: int) -> tuple[Table, Foul]:
        """This table and its foul ``foul_id`` if the clicker may withdraw it now; otherwise the refusal,
        so that the reason form is offered only for a foul that can be withdrawn."""
        table = await self._moderated_table(interaction)
        storage = self.games.storage
        if storage is None:
            raise UserFacingError("conduct-fouls-no-database")
        fouls = await asyncio.to_thread(storage.fouls, table.game_id, include_withdrawn=True)
        foul = next((f for f in fouls if f.id == foul_id), None)
        if foul is None:
            raise UserFacingError("conduct-no-such-foul", record=str(foul_id))
        if foul.withdrawn_at is not None:
            raise UserFacingError("conduct-foul-withdrawn-already", record=str(foul_id))
        return table, foul

    # -- fouls --------------------------------------------------------------------------------------

    @app_commands.command(name="foul", description="Замечание игроку (в «Простой мафии» — бан)")
    @app_commands.describe(
        reason="За что", seat="Номер игрока", player="Или участник", note="Пояснение (необязательно)"
    )
    @app_commands.choices(reason=_choices(FOUL_REASONS))
    async def foul(
        self,
        interaction: discord.Interaction[MafiaBot],
        reason: str,
        seat: Seat | None = None,
        player: discord.Member | None = None,
        note: str = "",
    ) -> None:
        table = await self._moderated_table(interaction)
        target = resolve_seat(table, seat, player)
        events = await self.games.submit(table, engine.Foul(seat=target, reason=reason))
        command = table.session.log[-1]  # nothing else ran since: no await between the two
        label = FOUL_REASONS[reason] + (f": {note}" if note else "")  # (stored: the rulebook's words)
        lang = table.session.language
        shown = reason_shown(lang, reason, FOUL_REASONS[reason]) + (f": {note}" if note else "")
        if not any(e.type == "foul" for e in events):
            # D-F2: «клятвы, споры» — a foul by day, removal after «в городе ночь» (the preset decides).
            said = text(lang, "conduct-removed-at-night", seat=target, reason=shown)
            await interaction.response.send_message(said, ephemeral=True)
            return
        foul_id = await self._store_foul(table, target, label, command, interaction.user.id)
        if foul_id is not None:
            said = text(lang, "conduct-foul-given-record", seat=target, record=str(foul_id), reason=shown)
        else:
            said = text(lang, "conduct-foul-given", seat=target, reason=shown)
        await interaction.response.send_message(said, ephemeral=True)

    # Discord allows 25 subcommands under /mafia: the moderator's other conduct tools share one group.
    conduct = app_commands.Group(
        name="conduct", description="Правила клуба: замечания, удаление, штраф команде"
    )

    @conduct.command(name="withdraw", description="Снять замечание (номер записи — в /mafia conduct list)")
    @app_commands.describe(foul_id="Номер записи замечания", reason="Почему снимаете")
    async def withdraw_command(
        self, interaction: discord.Interaction[MafiaBot], foul_id: int, reason: str
    ) -> None:
        said = await self.withdraw(interaction, foul_id, reason)
        await interaction.response.send_message(said, ephemeral=True)

    async def withdraw(self, interaction: discord.Interaction[Any], foul_id: int, reason: str) -> str:
        """Withdraw a foul of this table's game: stored with who and why; in a running game the foul is
        taken out of the game (replayed without it), so a right it had cost is given back."""
        if foul_id in self.withdrawing:  # (two withdrawals at once: both would pass the check below)
            raise UserFacingError("conduct-foul-withdrawn-already", record=str(foul_id))
        self.withdrawing.add(foul_id)
        try:
            return await self._withdraw(interaction, foul_id, reason)
        finally:
            self.withdrawing.discard(foul_id)

    async def _withdraw(self, interaction: discord.Interaction[Any], foul_id: int, reason: str) -> str:
        table, foul = await self._withdrawable(interaction, foul_id)
        storage = self.games.storage
        assert storage is not None  # _withdrawable refuses without one
        session = table.session
        was_seated = foul.seat in session.state.alive
        link = self.commands_of.get(foul_id)
        command = link[1] if link is not None and link[0] == table.game_id else None

        async def persist(taken_out: bool) -> None:
            self.commands_of.pop(foul_id, None)
            await asyncio.to_thread(storage.withdraw_foul, foul_id, by=interaction.user.id, reason=reason)
            if taken_out and not was_seated and foul.seat in session.state.alive:
                # the foul that removed him is gone: he is back at the table
                await asyncio.to_thread(storage.mark_participant, table.game_id, foul.seat, removed=False)

        in_game = await self.games.withdraw(table, command, persist)
        count = session.state.fouls_of(foul.seat)
        lang = table.session.language
        table.post(text(lang, "conduct-foul-withdrawn-post", seat=foul.seat, reason=reason, count=count))
        log.info("Foul %s withdrawn by %s", foul_id, interaction.user.id, extra={"game_id": table.game_id})
        if not in_game:
            # The bot was restarted since the foul was given: which command gave it is not known.
            return text(lang, "conduct-foul-withdrawn-record-only", record=str(foul_id))
        return text(lang, "conduct-foul-withdrawn", record=str(foul_id))

    @conduct.command(name="list", description="Замечания этой игры: кто, кому, за что и когда")
    async def list_fouls(self, interaction: discord.Interaction[MafiaBot]) -> None:
        table = await self._moderated_table(interaction)
        storage = self.games.storage
        rows = (
            []
            if storage is None
            else await asyncio.to_thread(storage.fouls, table.game_id, include_withdrawn=True)
        )
        if not rows:
            await interaction.response.send_message(
                text(table.session.language, "conduct-no-fouls"), ephemeral=True
            )
            return
        lang = table.session.language
        lines = []
        for f in rows:
            by = text(lang, "conduct-by-bot") if f.automatic else f"<@{f.given_by}>"
            when = f"<t:{int(f.given_at.timestamp())}:T>"
            line = text(
                lang,
                "conduct-list-row",
                record=str(f.id),
                seat=f.seat,
                day=f.day,
                reason=stored_reason_shown(lang, f.reason),
                by=by,
                when=when,
            )
            if f.withdrawn_at is not None:
                line = text(
                    lang,
                    "conduct-list-withdrawn",
                    row=line,
                    by=str(f.withdrawn_by),
                    reason=f.withdrawn_reason,
                )
            lines.append(line)
        await interaction.response.send_message("\n".join(lines)[:2000], ephemeral=True)

    # -- removal and the team penalty ---------------------------------------------------------------

    @conduct.command(name="remove", description="Удалить игрока из игры по правилам клуба")
    @app_commands.describe(reason="За что", seat="Номер игрока", player="Или участник")
    @app_commands.choices(reason=_choices(REMOVAL_REASONS))
    async def remove(
        self,
        interaction: discord.Interaction[MafiaBot],
        reason: str,
        seat: Seat | None = None,
        player: discord.Member | None = None,
    ) -> None:
        table = await self._moderated_table(interaction)
        target = resolve_seat(table, seat, player)
        lang = table.session.language
        shown = reason_shown(lang, reason, REMOVAL_REASONS[reason])
        name = table.session.name_of(target)
        await self._confirm(
            interaction,
            table,
            engine.Remove(seat=target, reason=reason),
            text(lang, "conduct-remove-question", seat=target, name=name, reason=shown),
            text(lang, "conduct-removed", seat=target, reason=shown),
        )

    @conduct.command(name="penalty", description="Присудить победу командам, противоположным команде игрока")
    @app_commands.describe(reason="За что", seat="Номер нарушителя", player="Или участник")
    @app_commands.choices(reason=_choices(PENALTY_REASONS))
    async def penalty(
        self,
        interaction: discord.Interaction[MafiaBot],
        reason: str,
        seat: Seat | None = None,
        player: discord.Member | None = None,
    ) -> None:
        table = await self._moderated_table(interaction)
        target = resolve_seat(table, seat, player)
        await self._confirm(
            interaction,
            table,
            engine.AwardVictory(seat=target, reason=reason),
            text(
                table.session.language,
                "conduct-penalty-question",
                seat=target,
                reason=reason_shown(table.session.language, reason, PENALTY_REASONS[reason]),
            ),
            text(table.session.language, "conduct-penalty-done"),
        )

    async def _confirm(
        self,
        interaction: discord.Interaction[MafiaBot],
        table: Table,
        command: engine.Command,
        question: str,
        done: str,
    ) -> None:
        """Ask the moderator to confirm a command that cannot be taken back, then submit it."""
        moderator = interaction.user.id

        async def act() -> str:
            await self.games.submit(table, command)
            log.info("%s confirmed by %s", command.to_json(), moderator, extra={"game_id": table.game_id})
            return done

        await interaction.response.send_message(
            question, view=Confirm(moderator, act, table.session.language), ephemeral=True
        )

    @conduct.command(
        name="immunity", description="Снять иммунитет (город: вскрылся, прикрываясь иммунитетом)"
    )
    @app_commands.describe(seat="Номер игрока", player="Или участник")
    async def immunity(
        self,
        interaction: discord.Interaction[MafiaBot],
        seat: Seat | None = None,
        player: discord.Member | None = None,
    ) -> None:
        """D-C5: «Игрок лишается его, если … вскрылся любой ролью, прикрываясь иммунитетом»."""
        table = await self._moderated_table(interaction)
        target = resolve_seat(table, seat, player)
        await self.games.submit(table, engine.RevokeImmunity(seat=target))
        await interaction.response.send_message(
            text(table.session.language, "conduct-immunity-revoked", seat=target), ephemeral=True
        )

    # -- automatic fouls for messages ---------------------------------------------------------------

    @conduct.command(name="textfouls", description="Замечания за сообщения в канале игры не в свою минуту")
    @app_commands.describe(enabled="Включить или выключить")
    async def textfouls(self, interaction: discord.Interaction[MafiaBot], enabled: bool) -> None:
        table = await self._moderated_table(interaction)
        self.text_fouls[table.game_id] = enabled
        said = text(table.session.language, "conduct-text-fouls-on" if enabled else "conduct-text-fouls-off")
        await interaction.response.send_message(said, ephemeral=True)

    def _text_fouls_on(self, table: Table) -> bool:
        default = bool(table.session.ruleset.params.get("auto_foul_text", False))  # D-F2: default off
        return self.text_fouls.get(table.game_id, default)

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        """D-F2: a living player who writes in the game's channel at night or without the floor."""
        if message.author.bot or message.guild is None:
            return
        table = self.games.tables.in_text_channel(message.channel.id)
        if table is None or table.session.over or not self._text_fouls_on(table):
            return
        session = table.session
        seat = session.seat_of(message.author.id)
        s = session.state
        if seat is None or seat not in s.alive or s.ruleset.conduct.kind == "none":
            return
        if s.phase == "day" and seat in queries.speakers(s):
            return
        reason = "text_at_night" if s.phase == "night" else "text_out_of_turn"
        try:
            await self.games.submit(table, engine.Foul(seat=seat, reason=reason))
        except engine.IllegalCommand:
            return  # the rules give no foul here: the message stays
        command = session.log[-1]
        foul_id = await self._store_foul(table, seat, AUTO_REASONS[reason], command, None)
        self._announce_auto(table, seat, AUTO_REASONS[reason], foul_id, reason)
        try:
            await message.delete()
        except discord.HTTPException:
            log.info("Could not delete an out-of-turn message", extra={"game_id": table.game_id})


async def setup(bot: MafiaBot) -> None:
    await bot.add_cog(ConductCog(bot))
