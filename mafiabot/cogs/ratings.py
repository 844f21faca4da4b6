"""Ratings per server (issue 7): every finished game is rated on both tracks; profiles, leaderboards,
history, a stored game and its protocol, a chart of a player's rating, and the season's CSV."""

from __future__ import annotations

import asyncio
import io
import json
import logging
from collections import defaultdict
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from mafiabot.bot import MafiaBot
from mafiabot.cogs._conduct_parts import is_moderator
from mafiabot.cogs._rating_texts import (
    PAGE,
    TRACKS,
    board_text,
    history_line,
    profile_text,
    protocol,
    record_text,
    track_name,
)
from mafiabot.disclosure import is_over, record_shown, replay
from mafiabot.errors import UserFacingError, needed
from mafiabot.game.records import stored_game_record
from mafiabot.game.server_settings import server_settings
from mafiabot.game.service import GameService
from mafiabot.game.table import Table
from mafiabot.i18n import DEFAULT, season_name, text
from mafiabot.ratings import POINTS_TRACK, RatingError
from mafiabot.storage import GameRecord, GameStatus, NotFound, Storage
from mafiabot.views import MafiaView

log = logging.getLogger(__name__)

# The members' context menu: its Russian name is Discord's default (Russian clients), the English is
# commands.ftl's (every other client).
PROFILE_MENU = app_commands.locale_str("Мафия: профиль", key="cmd-menu-profile")

BOARD_MIN_GAMES = 1  # a player appears on a board after his first game of the season there
TRACK_CHOICES = [app_commands.Choice(name=label, value=key) for key, label in TRACKS.items()]


class BoardView(MafiaView):
    """«◀» / «▶» through a leaderboard, for the member who asked."""

    def __init__(
        self,
        cog: RatingsCog,
        owner_id: int,
        guild_id: int,
        season_id: int,
        track: str,
        language: str = DEFAULT,
    ) -> None:
        super().__init__(timeout=600)
        self.cog, self.owner_id, self.guild_id, self.language = cog, owner_id, guild_id, language
        self.season_id, self.track, self.page, self.pages = season_id, track, 0, 1

    async def render(self) -> str:
        storage = self.cog.storage
        board = await asyncio.to_thread(
            storage.leaderboard,
            self.guild_id,
            season_id=self.season_id,
            track=self.track,
            min_games=BOARD_MIN_GAMES,
            limit=PAGE,
            offset=self.page * PAGE,
        )
        season = await asyncio.to_thread(_season_name, storage, self.guild_id, self.season_id, self.language)
        self.pages = max(1, -(-board.total // PAGE))
        self.previous.disabled = self.page == 0
        self.next.disabled = self.page >= self.pages - 1
        return board_text(board, self.track, season, self.page, self.language)

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        await super().interaction_check(interaction)
        return interaction.user.id == self.owner_id

    @discord.ui.button(label="◀", style=discord.ButtonStyle.secondary)
    async def previous(self, interaction: discord.Interaction[Any], button: discord.ui.Button[Any]) -> None:
        self.page = max(0, self.page - 1)
        await interaction.response.edit_message(content=await self.render(), view=self)

    @discord.ui.button(label="▶", style=discord.ButtonStyle.secondary)
    async def next(self, interaction: discord.Interaction[Any], button: discord.ui.Button[Any]) -> None:
        self.page += 1
        await interaction.response.edit_message(content=await self.render(), view=self)


def _game_texts(record: GameRecord, names: dict[int, str], language: str = DEFAULT) -> tuple[str, str]:
    """The card and the protocol of a stored game as anyone may see them (a running game's seats and public
    events; roles only as its rules have shown them)."""
    state = None if is_over(record.game.status) else replay(record)[0]
    return record_text(record_shown(record, state), language), protocol(record, names, language)


def _season_name(storage: Storage, guild_id: int, season_id: int, language: str = DEFAULT) -> str:
    for season in storage.seasons(guild_id):
        if season.id == season_id:
            return season_name(language, season)
    return text(language, "ratings-season-default")


class RatingsCog(commands.Cog, name="Ratings"):
    def __init__(self, bot: MafiaBot) -> None:
        self.bot = bot

    @property
    def games(self) -> GameService:
        return self.bot.games

    @property
    def storage(self) -> Storage:
        return needed(self.games.storage, "ratings-no-database")

    async def _language(self, guild_id: int) -> str:
        """The server's language (its setting, else the bot's)."""
        return (await server_settings(self.games.storage, guild_id)).game(self.bot.settings.game).language

    async def cog_load(self) -> None:
        self.games.finish_hooks.append(self.on_game_finished)
        # A member's context menu (Apps → «Мафия: профиль»): his profile, privately.
        self.profile_menu = app_commands.ContextMenu(
            name=PROFILE_MENU,
            callback=self.profile_of,
            allowed_contexts=app_commands.AppCommandContext(guild=True),
        )
        self.bot.add_top_level(self.profile_menu)

    async def cog_unload(self) -> None:
        if self.on_game_finished in self.games.finish_hooks:
            self.games.finish_hooks.remove(self.on_game_finished)
        self.bot.remove_top_level(self.profile_menu)

    async def profile_of(self, interaction: discord.Interaction[MafiaBot], member: discord.Member) -> None:
        await self._send_profile(interaction, member, POINTS_TRACK, ephemeral=True)

    async def on_game_finished(self, table: Table) -> None:
        """Tell the table what each player got: the game was rated as its results were stored (in the
        same transaction, `Storage.finish_and_rate_game`)."""
        storage = self.games.storage
        if storage is None:
            return
        try:
            deltas = await asyncio.to_thread(storage.game_rating_changes, table.game_id)
        except Exception:  # the table must still close: the rating is stored, only its message is lost
            log.exception("Could not read the game's rating", extra={"game_id": table.game_id})
            return
        if not deltas:
            return
        points: dict[int, float] = defaultdict(float)
        elo: dict[int, float] = {}
        for d in deltas:
            if d.track == POINTS_TRACK:
                points[d.user_id] += d.delta
            else:
                elo[d.user_id] = d.delta
        lang = table.session.language
        lines = [text(lang, "rating-game-title")]
        for info in table.session.seats:
            shown = {"seat": info.seat, "name": info.name, "points": f"{points[info.user_id]:+.1f}"}
            if info.user_id in elo:
                lines.append(text(lang, "rating-game-row-elo", elo=f"{elo[info.user_id]:+.1f}", **shown))
            else:
                lines.append(text(lang, "rating-game-row", **shown))
        table.post("\n".join(lines))

    def _guild(self, interaction: discord.Interaction[Any]) -> int:
        if interaction.guild_id is None:
            raise UserFacingError("error-server-only")
        return interaction.guild_id

    async def _season_id(self, guild_id: int, season: int | None) -> int | None:
        if season is None:
            return None
        try:
            row = await asyncio.to_thread(self.storage.season, guild_id, season)
        except NotFound:
            raise UserFacingError("ratings-no-season", season=str(season)) from None
        return row.id

    @app_commands.command(name="rating", description="Профиль игрока и график его рейтинга за сезон")
    @app_commands.describe(player="Чей профиль (по умолчанию ваш)", track="Какой рейтинг на графике")
    @app_commands.choices(track=TRACK_CHOICES)
    async def rating(
        self,
        interaction: discord.Interaction[MafiaBot],
        player: discord.Member | None = None,
        track: str = POINTS_TRACK,
    ) -> None:
        await self._send_profile(interaction, player or interaction.user, track)

    async def _send_profile(
        self,
        interaction: discord.Interaction[MafiaBot],
        who: discord.Member | discord.User,
        track: str,
        *,
        ephemeral: bool = False,
    ) -> None:
        guild_id = self._guild(interaction)
        storage = self.storage
        # Reading the season and drawing the chart can take longer than Discord's 3 s to answer.
        await interaction.response.defer(ephemeral=ephemeral, thinking=True)
        language = await self._language(guild_id)
        profile = await asyncio.to_thread(storage.player_profile, guild_id, who.id)
        points = await asyncio.to_thread(storage.rating_history, guild_id, who.id, track=track)
        values = [v for _, v in points]
        track_title = track_name(track, language)
        # matplotlib is imported at the first chart, not at every start of the bot (about 1 s of CPU).
        from mafiabot.ratings.chart import rating_chart

        png = await asyncio.to_thread(
            rating_chart, points, name=who.display_name, track=track_title, language=language
        )
        file = discord.File(io.BytesIO(png), filename=f"rating-{who.id}-{track}.png")
        digits = 1 if track == POINTS_TRACK else 0
        chart = text(
            language,
            "chart-line",
            track=track_title,
            now=f"{values[-1]:.{digits}f}",
            low=f"{min(values):.{digits}f}",
            high=f"{max(values):.{digits}f}",
            changes=len(values) - 1,
        )
        await interaction.followup.send(
            f"{profile_text(profile, who.display_name, language)}\n{chart}"[:2000],
            file=file,
            allowed_mentions=discord.AllowedMentions.none(),
            ephemeral=ephemeral,
        )

    @app_commands.command(name="top", description="Таблица рейтинга сезона")
    @app_commands.describe(season="Номер сезона (по умолчанию текущий)", track="Какой рейтинг")
    @app_commands.choices(track=TRACK_CHOICES)
    async def top(
        self, interaction: discord.Interaction[MafiaBot], season: int | None = None, track: str = POINTS_TRACK
    ) -> None:
        guild_id = self._guild(interaction)
        season_id = await self._season_id(guild_id, season)
        if season_id is None:
            season_id = (await asyncio.to_thread(self.storage.current_season, guild_id)).id
        assert season_id is not None
        view = BoardView(
            self, interaction.user.id, guild_id, season_id, track, await self._language(guild_id)
        )
        await interaction.response.send_message(await view.render(), view=view)

    @app_commands.command(name="history", description="Последние игры игрока")
    @app_commands.describe(player="Чьи игры (по умолчанию ваши)")
    async def history(
        self, interaction: discord.Interaction[MafiaBot], player: discord.Member | None = None
    ) -> None:
        guild_id = self._guild(interaction)
        who = player or interaction.user
        language = await self._language(guild_id)
        games = await asyncio.to_thread(self.storage.game_history, guild_id, who.id, limit=20)
        lines = [text(language, "history-title", name=who.display_name)]
        lines += [history_line(g, language) for g in games]
        if not games:
            lines.append(text(language, "history-none"))
        await interaction.response.send_message("\n".join(lines)[:2000], ephemeral=True)

    @app_commands.command(name="game", description="Запись игры и её протокол")
    @app_commands.describe(game_id="Номер игры")
    async def game(self, interaction: discord.Interaction[MafiaBot], game_id: int) -> None:
        guild_id = self._guild(interaction)
        try:
            record = await asyncio.to_thread(self.storage.game_record, game_id)
        except NotFound:
            record = None
        if record is None or record.game.guild_id != guild_id:
            raise UserFacingError("ratings-no-game", game=str(game_id))
        if record.game.status == GameStatus.LOBBY:
            raise UserFacingError("ratings-not-started", game=str(game_id))
        guild = interaction.guild
        # Members are not all cached (no member chunking at start): one the bot has not met since goes
        # by the name stored when the game was dealt.
        stored = await asyncio.to_thread(self.storage.seat_names, game_id)
        names = {}
        for p in record.participants:
            member = guild.get_member(p.user_id) if guild else None
            names[p.seat] = member.display_name if member else stored.get(p.seat, str(p.user_id))
        language = await self._language(guild_id)
        card, text = await asyncio.to_thread(_game_texts, record, names, language)
        files = [discord.File(io.BytesIO(text.encode("utf-8")), filename=f"mafia-game-{game_id}.txt")]
        if is_over(record.game.status):
            # The game record beside the protocol: `python -m engine replay` replays it to the game's
            # events. It holds every role and night target, so only once the game is over.
            data = json.dumps(stored_game_record(record, names), ensure_ascii=False, indent=1).encode("utf-8")
            files.append(discord.File(io.BytesIO(data), filename=f"mafia-game-{game_id}.json"))
        await interaction.response.send_message(
            card[:2000],
            files=files,
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    # Discord allows 25 subcommands under /mafia: the moderators' season tools share one group.
    season_group = app_commands.Group(
        name="season", description="Сезон: новый сезон, дополнительные очки, выгрузка"
    )

    @season_group.command(name="new", description="Начать новый сезон (старые рейтинги остаются в истории)")
    @app_commands.describe(name="Название (по умолчанию «Сезон N»)")
    async def new_season(
        self,
        interaction: discord.Interaction[MafiaBot],
        name: app_commands.Range[str, 1, 100] | None = None,  # (said in the channel: a line of 2,000 at most)
    ) -> None:
        guild_id = self._guild(interaction)
        await self._require_moderator(interaction)
        season = await asyncio.to_thread(self.storage.start_new_season, guild_id, name)
        language = await self._language(guild_id)
        named = season_name(language, season)
        await interaction.response.send_message(text(language, "season-started", season=named))

    @season_group.command(name="bonus", description="Дополнительные очки игроку за игру (для ведущих)")
    @app_commands.describe(game_id="Номер игры", player="Кому", points="Сколько очков", reason="За что")
    async def bonus(
        self,
        interaction: discord.Interaction[MafiaBot],
        game_id: int,
        player: discord.Member,
        points: app_commands.Range[float, 0.1, 0.5],
        reason: app_commands.Range[str, 1, 200],  # (said in the channel: a line of 2,000 at most)
    ) -> None:
        guild_id = self._guild(interaction)
        await self._require_moderator(interaction)
        storage = self.storage
        try:
            game = await asyncio.to_thread(storage.game, game_id)
        except NotFound:
            game = None
        if game is None or game.guild_id != guild_id:
            raise UserFacingError("ratings-no-game", game=str(game_id))
        cap = storage.points_rules.extra_cap
        try:
            await asyncio.to_thread(
                storage.add_extra_points,
                game_id,
                user_id=player.id,
                amount=points,
                reason=reason,
                given_by=interaction.user.id,
            )
        except NotFound:
            raise UserFacingError(
                "season-bonus-not-played", name=player.display_name, game=str(game_id)
            ) from None
        except RatingError:
            raise UserFacingError("season-bonus-cap", cap=f"{cap:g}") from None
        await interaction.response.send_message(
            text(
                await self._language(guild_id),
                "season-bonus-given",
                name=player.display_name,
                points=f"{points:g}",
                game=str(game_id),
                reason=reason,
            ),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def _require_moderator(self, interaction: discord.Interaction[Any]) -> None:
        member = interaction.user
        if not isinstance(member, discord.Member) or not await is_moderator(member, self.games):
            raise UserFacingError("ratings-moderators")

    @season_group.command(name="export", description="Таблица сезона в CSV (для ведущих)")
    @app_commands.describe(season="Номер сезона (по умолчанию текущий)")
    async def export(self, interaction: discord.Interaction[MafiaBot], season: int | None = None) -> None:
        guild_id = self._guild(interaction)
        await self._require_moderator(interaction)
        season_id = await self._season_id(guild_id, season)
        csv = await asyncio.to_thread(self.storage.export_season_csv, guild_id, season_id)
        name = f"mafia-season-{season or 'current'}.csv"
        file = discord.File(io.BytesIO(csv.encode("utf-8")), filename=name)
        said = text(await self._language(guild_id), "season-export")
        await interaction.response.send_message(said, file=file, ephemeral=True)


async def setup(bot: MafiaBot) -> None:
    await bot.add_cog(RatingsCog(bot))
