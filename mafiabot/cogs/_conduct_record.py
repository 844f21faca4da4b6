"""What the conduct cog keeps as games go on: every foul stored with who gave it and when, the command
of the game's log that gave it (so that a withdrawal can take it out again, also after a restart), the
removals the rating needs (D-F4), and the announcements of what the bot decided on its own."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

import engine
from mafiabot.cogs._conduct_parts import forgive_view, is_moderator, review_view
from mafiabot.errors import UserFacingError
from mafiabot.game.service import GameService
from mafiabot.game.table import Table
from mafiabot.i18n import text
from mafiabot.offences import LEAVING, reason_label, reason_shown

log = logging.getLogger("mafiabot.cogs.conduct")


class FoulRecords:
    """Mixed into the conduct cog."""

    bot: Any
    # foul id -> (game id, the command of the session's log that gave it)
    commands_of: dict[int, tuple[int, engine.Command]]
    forgiving: set[tuple[int, int]]  # (game id, seat) of a leaving penalty being lifted (a double click)

    @property
    def games(self) -> GameService:
        games: GameService = self.bot.games
        return games

    async def _store_foul(
        self, table: Table, seat: int, reason: str, command: engine.Command, given_by: int | None
    ) -> int | None:
        storage = self.games.storage
        if storage is None:
            return None
        row = await asyncio.to_thread(
            storage.add_foul,
            table.game_id,
            seat=seat,
            user_id=table.session.user_of(seat),
            reason=reason,
            day=table.session.state.day,
            given_by=given_by,
            automatic=given_by is None,
        )
        assert row.id is not None
        self.commands_of[row.id] = (table.game_id, command)
        extra = {"guild_id": table.guild.id, "game_id": table.game_id}
        log.info("Foul %s to seat %s (%s) by %s", row.id, seat, reason, given_by or "the bot", extra=extra)
        return row.id

    async def on_game_events(self, table: Table, events: list[engine.Event]) -> None:
        """Every foul the engine gives on its own (a refused self-nomination, self-vote or second vote) is
        recorded as automatic and offered for review; removals mark the seat for the rating (D-F4)."""
        session = table.session
        command = session.log[-1] if session.log else None
        for ev in events:
            try:
                if ev.type == "foul" and command is not None and not isinstance(command, engine.Foul):
                    seat = int(ev.data["seat"])
                    label = reason_label(str(ev.data.get("reason", "")))
                    foul_id = await self._store_foul(table, seat, label, command, None)
                    self._announce_auto(table, seat, label, foul_id, str(ev.data.get("reason", "")))
                elif ev.type == "removed":
                    await self._mark_removed(table, int(ev.data["seat"]), str(ev.data.get("reason", "")))
            except Exception:
                log.exception("Could not record %s", ev.type, extra={"game_id": table.game_id})

    async def on_game_restored(self, table: Table) -> None:
        """After a restart the stored log still holds the commands of withdrawn fouls: take them out again,
        and learn which command gave each foul still standing, so that it can be withdrawn too."""
        storage = self.games.storage
        if storage is None:
            return
        rows = await asyncio.to_thread(storage.fouls, table.game_id, include_withdrawn=True)
        if not rows:
            return
        session = table.session
        positions = session.positions_of("foul")
        if len(positions) != len(rows):
            log.warning("Stored fouls do not match the game's log", extra={"game_id": table.game_id})
            return
        commands = [session.log[i] for i in positions]
        withdrawn = {i for i, row in zip(positions, rows, strict=True) if row.withdrawn_at is not None}
        if withdrawn:
            try:
                # before the table runs (nothing else touches the game yet); its buttons stay good
                session.withdraw(withdrawn, keep_controls=True)
            except UserFacingError:
                log.warning("Withdrawn fouls could not be taken out", extra={"game_id": table.game_id})
                return
        for command, row in zip(commands, rows, strict=True):
            if row.withdrawn_at is None and row.id is not None:
                self.commands_of[row.id] = (table.game_id, command)

    def _announce_auto(
        self, table: Table, seat: int, label: str, foul_id: int | None, reason: str = ""
    ) -> None:
        lang = table.session.language
        said = {
            "seat": seat,
            "name": table.session.name_of(seat),
            "reason": reason_shown(lang, reason, label),
        }
        if foul_id is None:
            shown = text(lang, "conduct-auto-foul", **said)
            post: Any = lambda: table.post(shown)  # noqa: E731
        else:
            shown = text(lang, "conduct-auto-foul-record", record=str(foul_id), **said)
            post = lambda: table.post(shown, view=review_view(foul_id, lang))  # noqa: E731
        # After the engine's own announcement of the foul, which the table posts once the hooks are done.
        asyncio.get_running_loop().call_soon(post)

    async def _mark_removed(self, table: Table, seat: int, reason: str) -> None:
        storage = self.games.storage
        if storage is not None:
            left = True if reason in LEAVING else None
            await asyncio.to_thread(storage.mark_participant, table.game_id, seat, removed=True, left=left)
        if reason == "left":
            shown = text(table.session.language, "conduct-left", seat=seat, name=table.session.name_of(seat))
            view = forgive_view(table.game_id, seat, table.session.language)
            asyncio.get_running_loop().call_soon(lambda: table.post(shown, view=view))

    async def forgive(self, interaction: discord.Interaction[Any], game_id: int, seat: int) -> str:
        """A moderator lifts the −5 of a player who left (D-F4); the removal itself stands."""
        table = self.games.table_by_id(game_id)
        if table is None or table.guild.id != interaction.guild_id:  # (a button forged on another server)
            raise UserFacingError("conduct-over")
        member = interaction.user
        if not isinstance(member, discord.Member) or not await is_moderator(member, self.games, table):
            raise UserFacingError("conduct-moderators")
        if not 1 <= seat <= len(table.session.seats):  # a forged button: no such seat at this table
            raise UserFacingError("conduct-no-seat", seat=seat)
        storage = self.games.storage
        if storage is None:
            raise UserFacingError("conduct-no-database")
        # Only from a seat that left and still carries it: a seat forged into the button (still at the
        # table) or a second click (even one at the same moment) would post at the table a lifting that
        # is untrue or said already.
        if (game_id, seat) in self.forgiving:
            raise UserFacingError("conduct-not-left", seat=seat)
        self.forgiving.add((game_id, seat))
        try:
            places = await asyncio.to_thread(storage.participants, game_id)
            if not any(p.seat == seat and p.left for p in places):
                raise UserFacingError("conduct-not-left", seat=seat)
            await asyncio.to_thread(storage.mark_participant, game_id, seat, left=False)
        finally:
            self.forgiving.discard((game_id, seat))
        table.post(text(table.session.language, "conduct-forgiven-post", seat=seat))
        log.info("Leaving penalty of seat %s lifted by %s", seat, member.id, extra={"game_id": game_id})
        return text(table.session.language, "conduct-forgiven")
