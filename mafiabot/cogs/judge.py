"""The judge's controls beyond the moderator's (issue 19): colours left on record, extra points, the
confirmation of a result with its signed protocol (mafiabot.game.protocol), and tournaments — a series of
confirmed games on one server with a table of points (FIIM.md F.14).

Who is the judge: whoever may moderate the game (its creator, a member who manages the server, the
server's host role; he also pauses, gives fouls and removes players with /mafia pause, foul, conduct) and
the judge named for the server's open tournament. Extra points and the confirmation are for a game that
ended by the rules, so they never say anything before the roles are shown.

Over 400 lines because the /mafia judge and /mafia tournament groups are each one Discord group and so
one cog's class attributes; their helpers are in _tournament_parts.py.
"""

from __future__ import annotations

import asyncio
import io
import json
import secrets
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import engine
from engine.kinds import fiim_schedule, fiim_scoring
from engine.record import play_record
from mafiabot.bot import MafiaBot
from mafiabot.cogs._conduct_parts import is_moderator, table_here
from mafiabot.cogs._play import Reply, player_action
from mafiabot.cogs._tournament_parts import fit, schedule_csv, schedule_lines, schedule_players
from mafiabot.errors import UserFacingError, engine_refusal, language_of, needed
from mafiabot.game import fiim_controls, protocol
from mafiabot.game.actions import ACTIONS
from mafiabot.game.records import stored_game_record
from mafiabot.game.service import GameService
from mafiabot.i18n import DEFAULT, text
from mafiabot.storage import NotFound, Storage, StorageError

_COLOURS = {"ч": "black", "к": "red", "b": "black", "r": "red"}  # i18n: what players type
MAX_PROTOCOL_BYTES = 2 * 1024 * 1024  # a fiim game's signed protocol is some 50 KB
# The tournament's scoring profiles are [params.scoring_profiles] of the fiim preset (FIIM.md F.14, D-FI15);
# /mafia tournament start offers them by name (each one's words: «tournament-scoring-<id>» in judge.ftl).
DEFAULT_SCORING = "fiim_mr19"


def parse_colours(text: str) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """«3ч 5к» (or «3b 5r»): seats with «ч» for black, «к» for red."""
    targets, colours = [], []
    for part in text.replace(",", " ").split():
        number, mark = part[:-1], part[-1:].lower()
        if not number.isdigit() or mark not in _COLOURS:
            raise UserFacingError("judge-colours-unclear", part=part)
        targets.append(int(number))
        colours.append(_COLOURS[mark])
    if not targets:
        raise UserFacingError("judge-colours-none")
    return tuple(targets), tuple(colours)


def _text(table: list[fiim_scoring.Standing], name: str, language: str = DEFAULT) -> str:
    title, head = text(language, "tournament-table-title", name=name), text(language, "tournament-table-head")
    lines = [title, "```", head]
    for place, row in zip(fiim_scoring.places(table), table, strict=True):
        lines.append(
            f"{place:<3}{row.player[:20]:<21}{row.games:>4}{row.wins:>6}{row.total:>7.2f}"
            f"  ({row.best_move:g}, {row.extra:g}, {row.penalty:g})"
        )
    lines.append("```")
    return "\n".join(lines) if table else text(language, "tournament-table-empty", name=name)


def _on_record(seat: int, arg: str, values: list[str]) -> tuple[engine.Command, Reply]:
    """The speaker's own colours «под протокол» from the panel (fiim_controls; D-FI15, [MR 6.7])."""
    targets, colours = fiim_controls.parse(values)
    picked = list(zip(targets, colours, strict=True))
    black = ", ".join(f"№{t}" for t, c in picked if c == "black") or "—"
    red = ", ".join(f"№{t}" for t, c in picked if c == "red") or "—"
    command = engine.OnRecord(seat=seat, targets=targets, colours=colours)
    return command, ("answer-on-record", {"black": black, "red": red})


class JudgeCog(commands.Cog, name="Judge"):
    def __init__(self, bot: MafiaBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        fiim_controls.install()
        ACTIONS["on_record"] = player_action(_on_record)

    @property
    def games(self) -> GameService:
        return self.bot.games

    @property
    def storage(self) -> Storage:
        return needed(self.games.storage, "judge-no-database")

    async def _judge(self, interaction: discord.Interaction[Any]) -> discord.Member:
        member = interaction.user
        if not isinstance(member, discord.Member):
            raise UserFacingError("judge-server-only")
        table = self.games.tables.in_text_channel(interaction.channel_id)
        if await is_moderator(member, self.games, table):
            return member
        open_one = await asyncio.to_thread(self.storage.open_tournament, member.guild.id)
        if open_one is not None and open_one.judge_id == member.id:
            return member
        raise UserFacingError("judge-not-judge")

    async def _finished_game(self, interaction: discord.Interaction[Any], game_id: int | None) -> Any:
        """The game meant: ``game_id`` of this server, or the last game of this channel that ended."""
        storage = self.storage
        guild_id = interaction.guild_id or 0
        if game_id is None:
            game = await asyncio.to_thread(storage.last_finished_game, guild_id, interaction.channel_id or 0)
            if game is None:
                raise UserFacingError("judge-no-finished-game")
            game_id = game.id
        try:
            record = await asyncio.to_thread(storage.game_record, int(game_id or 0))
        except NotFound:  # a number mistyped: no such game anywhere
            raise UserFacingError("judge-no-such-game", game=str(game_id)) from None
        if record.game.guild_id != guild_id:
            raise UserFacingError("judge-no-such-game", game=str(game_id))
        if record.game.status != "finished":
            raise UserFacingError("judge-not-finished", game=str(game_id))
        return record

    def _names(self, interaction: discord.Interaction[Any], record: Any) -> dict[int, str]:
        guild = interaction.guild
        names = {}
        for p in record.participants:
            member = guild.get_member(p.user_id) if guild else None
            names[p.seat] = member.display_name if member else str(p.user_id)
        return names

    judge = app_commands.Group(
        name="judge", description="Судья: цвета под протокол, доп. баллы, подтверждение"
    )

    @judge.command(name="record", description="Записать цвета, которые говорящий оставил под протокол")
    @app_commands.describe(colours="Номера и цвета: «3ч 5к» (ч — чёрный, к — красный)")
    async def record(self, interaction: discord.Interaction[MafiaBot], colours: str) -> None:
        await self._judge(interaction)
        table = table_here(self.games, interaction)
        targets, marks = parse_colours(colours)
        speaker = table.session.state.step.seat
        await self.games.submit(table, engine.OnRecord(seat=speaker, targets=targets, colours=marks))
        await interaction.response.send_message(
            text(language_of(interaction), "judge-recorded", seat=speaker), ephemeral=True
        )

    @judge.command(name="points", description="Дополнительные баллы игроку законченной игры")
    @app_commands.describe(
        seat="Номер игрока",
        points="Баллы (например 0.3 или -0.25)",
        reason="За что",
        game_id="Номер игры (по умолчанию — последняя в этом канале)",
    )
    async def points(
        self,
        interaction: discord.Interaction[MafiaBot],
        seat: app_commands.Range[int, 1, 20],
        points: float,
        reason: str,
        game_id: int | None = None,
    ) -> None:
        member = await self._judge(interaction)
        record = await self._finished_game(interaction, game_id)
        gid = int(record.game.id)
        ruleset = engine.load_ruleset(
            record.game.ruleset_id, [o for o, on in (record.game.options or {}).items() if on]
        )
        profiles = ruleset.params.get("scoring_profiles")
        if not profiles:
            raise UserFacingError("judge-no-extra-points")
        if not 1 <= seat <= len(record.participants):
            raise UserFacingError("judge-no-seat", seat=seat)
        profile = profiles[str(ruleset.params.get("scoring", ""))]
        if await asyncio.to_thread(self.storage.protocol, gid) is not None:
            raise UserFacingError("judge-points-final", game=str(gid))
        given = await asyncio.to_thread(self.storage.awards, gid)
        total = round(sum(a.points for a in given if a.seat == seat) + points, 4)
        try:
            fiim_scoring.check_extra(points, profile)
            fiim_scoring.check_extra(total, profile)
        except engine.IllegalCommand as exc:
            raise UserFacingError(engine_refusal(exc, language_of(interaction))) from None
        try:
            await asyncio.to_thread(
                self.storage.add_award, gid, seat=seat, points=points, reason=reason, by=member.id
            )
        except StorageError:  # confirmed meanwhile: a signed protocol's points are final
            raise UserFacingError("judge-points-late", game=str(gid)) from None
        await interaction.response.send_message(
            text(
                language_of(interaction),
                "judge-points-given",
                game=str(gid),
                seat=seat,
                points=f"{points:+g}",
                reason=reason,
                total=f"{total:+g}",
            ),
            ephemeral=True,
        )

    @judge.command(name="confirm", description="Подтвердить результат игры: подписанный протокол")
    @app_commands.describe(game_id="Номер игры (по умолчанию — последняя в этом канале)")
    async def confirm(self, interaction: discord.Interaction[MafiaBot], game_id: int | None = None) -> None:
        member = await self._judge(interaction)
        record = await self._finished_game(interaction, game_id)
        gid = int(record.game.id)
        storage = self.storage
        if await asyncio.to_thread(storage.protocol, gid) is not None:
            raise UserFacingError("judge-confirmed-already", game=str(gid))
        names = self._names(interaction, record)
        game_file = stored_game_record(record, names)
        awards = [
            protocol.Award(seat=a.seat, points=a.points, reason=a.reason, by=str(a.given_by))
            for a in await asyncio.to_thread(storage.awards, gid)
        ]
        at = storage.clock().isoformat()
        body = await asyncio.to_thread(
            protocol.build, game_file, awards, game_id=gid, confirmed_by=str(member.id), confirmed_at=at
        )
        seed = await asyncio.to_thread(storage.protocol_key, None, protocol.new_key)
        signed = protocol.sign(body, seed)
        scored = bool(play_record(game_file).ruleset.params.get("scoring_profiles"))
        await asyncio.to_thread(
            storage.save_protocol,
            gid,
            by=member.id,
            sha256=signed["sha256"],
            signed=signed,
            tournament=scored,
        )
        data = json.dumps(signed, ensure_ascii=False, indent=1).encode("utf-8")
        file = discord.File(io.BytesIO(data), filename=f"mafia-protocol-{gid}.json")
        lang = language_of(interaction)
        lines = [text(lang, "judge-confirmed", judge=member.display_name, game=str(gid))]
        for row in body["points"]:
            if "won" in row:
                name, total = names.get(row["seat"], ""), f"{row['total']:g}"
                lines.append(text(lang, "judge-confirmed-seat", seat=row["seat"], name=name, total=total))
        lines.append(text(lang, "judge-confirmed-sha", sha=signed["sha256"]))
        await interaction.response.send_message(
            "\n".join(lines)[:2000], file=file, allowed_mentions=discord.AllowedMentions.none()
        )

    @judge.command(name="key", description="Открытый ключ, которым бот подписывает протоколы")
    async def key(self, interaction: discord.Interaction[MafiaBot]) -> None:
        seed = await asyncio.to_thread(self.storage.protocol_key, None, protocol.new_key)
        await interaction.response.send_message(
            text(language_of(interaction), "judge-key", public=protocol.public_key(seed)),
            ephemeral=True,
        )

    @judge.command(name="verify", description="Проверить файл протокола: подпись бота и переигровка записи")
    @app_commands.describe(file="Файл протокола (mafia-protocol-N.json)", key="Чужой открытый ключ (hex)")
    async def verify(
        self, interaction: discord.Interaction[MafiaBot], file: discord.Attachment, key: str | None = None
    ) -> None:
        lang = language_of(interaction)
        if file.size > MAX_PROTOCOL_BYTES:
            raise UserFacingError(text(lang, "protocol-too-big", kb=MAX_PROTOCOL_BYTES // 1024))
        await interaction.response.defer(ephemeral=True, thinking=True)  # the file is fetched first
        try:
            signed = json.loads((await file.read()).decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            raise UserFacingError(text(lang, "protocol-not_protocol")) from None
        mine = protocol.public_key(await asyncio.to_thread(self.storage.protocol_key, None, protocol.new_key))
        wrong = protocol.problem(signed, key.strip().lower() if key else mine)
        if wrong is None and not await asyncio.to_thread(protocol.replays, signed["protocol"]):
            wrong = ("replay", "")
        if wrong is not None:
            code, detail = wrong
            said = text(lang, f"protocol-{code}", signer=detail[:16])
            raise UserFacingError(text(lang, "protocol-refused", name=file.filename[:60], why=said))
        body = signed["protocol"]
        result = body["result"]
        outcome = "draw" if result.get("draw") else "-".join(result.get("winners") or ["none"])
        await interaction.followup.send(
            text(
                lang,
                "protocol-valid",
                game=str(body.get("game_id", "")),
                ruleset=str(body.get("ruleset", "")),
                outcome=outcome,
                sha=signed["sha256"],
                own="yes" if not key else "no",
            ),
            ephemeral=True,
        )

    # -- tournaments -------------------------------------------------------------------------------

    tournament = app_commands.Group(name="tournament", description="Турнир: серия игр с общей таблицей очков")

    @tournament.command(name="start", description="Открыть турнир на этом сервере")
    @app_commands.describe(
        name="Название",
        judge="Судья турнира (по умолчанию — вы)",
        scoring="Подсчёт очков (по умолчанию — ФИИМ)",
    )
    @app_commands.choices(
        scoring=[
            app_commands.Choice(name="ФИИМ (mafiaratings №19)", value="fiim_mr19"),
            app_commands.Choice(
                name="ФИИМ и компенсация за отстрел в первую ночь (Ci)", value="fiim_mr19_ci"
            ),
        ]
    )
    async def start(
        self,
        interaction: discord.Interaction[MafiaBot],
        name: str,
        judge: discord.Member | None = None,
        scoring: str = DEFAULT_SCORING,
    ) -> None:
        member = interaction.user
        if not isinstance(member, discord.Member) or not await is_moderator(member, self.games):
            raise UserFacingError("tournament-start-not-allowed")
        if scoring not in engine.load_ruleset("fiim").params["scoring_profiles"]:
            raise UserFacingError("tournament-no-scoring", scoring=scoring[:40])
        chosen = judge or member
        open_one = await asyncio.to_thread(self.storage.open_tournament, member.guild.id)
        if open_one is not None:
            raise UserFacingError("tournament-already-open", name=open_one.name)
        try:
            row = await asyncio.to_thread(
                self.storage.start_tournament,
                member.guild.id,
                name=name,
                judge_id=chosen.id,
                scoring=scoring,
            )
        except StorageError:
            raise UserFacingError("tournament-other-open") from None
        lang = language_of(interaction)
        opened = text(lang, "tournament-opened", name=row.name, judge=chosen.display_name)
        how = text(lang, f"tournament-scoring-{scoring}")
        await interaction.response.send_message(
            f"{opened}\n{how}", allowed_mentions=discord.AllowedMentions.none()
        )

    async def _tournament(self, interaction: discord.Interaction[Any]) -> Any:
        guild_id = interaction.guild_id or 0
        found = await asyncio.to_thread(self.storage.open_tournament, guild_id)
        if found is None:
            every = await asyncio.to_thread(self.storage.tournaments, guild_id)
            if not every:
                raise UserFacingError("tournament-never")
            found = every[-1]
        return found

    async def _table(self, interaction: discord.Interaction[Any]) -> tuple[Any, list[fiim_scoring.Standing]]:
        row = await self._tournament(interaction)
        return row, await asyncio.to_thread(protocol.stored_standings, self.storage, row)

    @tournament.command(name="table", description="Таблица турнира (и CSV)")
    async def table(self, interaction: discord.Interaction[MafiaBot]) -> None:
        row, standings = await self._table(interaction)
        csv = fiim_scoring.standings_csv(standings).encode("utf-8")
        file = discord.File(io.BytesIO(csv), filename=f"tournament-{row.id}.csv")
        await interaction.response.send_message(
            _text(standings, row.name, language_of(interaction))[:2000],
            file=file,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @tournament.command(name="end", description="Закрыть турнир: таблица остаётся итоговой")
    async def end(self, interaction: discord.Interaction[MafiaBot]) -> None:
        await self._judge(interaction)
        row = await asyncio.to_thread(self.storage.open_tournament, interaction.guild_id or 0)
        if row is None:
            raise UserFacingError("tournament-none-open")
        await asyncio.to_thread(self.storage.close_tournament, int(row.id or 0))
        _, standings = await self._table(interaction)
        await interaction.response.send_message(
            text(lang := language_of(interaction), "tournament-closed")
            + "\n"
            + _text(standings, row.name, lang)[:1900],
            allowed_mentions=discord.AllowedMentions.none(),
        )

    # -- the seating schedule (FIIM.md F.2: «Seats are drawn at random or fixed by the tournament schedule»)

    @tournament.command(name="schedule", description="Расписание рассадки турнира на несколько игр")
    @app_commands.describe(
        games="Сколько игр",
        seating="Места закреплены расписанием или тянутся жребием за столом",
        players="Игроки (упоминания); по умолчанию — все в вашем голосовом канале",
    )
    @app_commands.choices(
        seating=[
            app_commands.Choice(name="Места по расписанию", value="fixed"),
            app_commands.Choice(name="Места жребием за столом", value="drawn"),
        ]
    )
    async def schedule(
        self,
        interaction: discord.Interaction[MafiaBot],
        games: app_commands.Range[int, 1, fiim_schedule.MAX_GAMES],
        seating: str = "fixed",
        players: str | None = None,
    ) -> None:
        member = await self._judge(interaction)
        lang = language_of(interaction)
        row = await asyncio.to_thread(self.storage.open_tournament, member.guild.id)
        if row is None:
            raise UserFacingError(text(lang, "tournament-schedule-no-tournament"))
        people = await schedule_players(interaction, member, players, lang)
        seed = secrets.randbits(63)  # the draw's randomness, passed in and stored with the schedule
        try:
            drawn = fiim_schedule.seating_schedule(
                [str(uid) for uid, _ in people], games, seed, fixed=seating == "fixed"
            )
        except engine.IllegalCommand as exc:
            raise UserFacingError(engine_refusal(exc, lang)) from None
        names = dict((str(uid), name) for uid, name in people)
        places = [[(int(uid), names[uid]) for uid in g.players] for g in drawn]
        tid = int(row.id or 0)
        await asyncio.to_thread(self.storage.save_schedule, tid, seating=seating, seed=seed, games=places)
        await self._send_schedule(interaction, row, lang, made=len(people))

    @tournament.command(name="seating", description="Расписание рассадки турнира")
    async def seating(self, interaction: discord.Interaction[MafiaBot]) -> None:
        row = await self._tournament(interaction)
        await self._send_schedule(interaction, row, language_of(interaction))

    async def _send_schedule(
        self, interaction: discord.Interaction[Any], row: Any, lang: str, made: int = 0
    ) -> None:
        found = await asyncio.to_thread(self.storage.schedule, int(row.id or 0))
        if found is None:
            raise UserFacingError(text(lang, "tournament-schedule-none", name=row.name))
        plan, games = found
        head = text(
            lang,
            "tournament-schedule-head",
            name=row.name,
            games=plan.games,
            seating=plan.seating,
            seed=str(plan.seed),
        )
        lines = [head, *schedule_lines(plan.seating, games, lang)]
        data = schedule_csv(plan.seating, games).encode("utf-8")
        file = discord.File(io.BytesIO(data), filename=f"tournament-{row.id}-seating.csv")
        quiet = discord.AllowedMentions.none()
        if interaction.response.is_done():
            await interaction.followup.send(fit(lines), file=file, allowed_mentions=quiet)
        else:
            await interaction.response.send_message(fit(lines), file=file, allowed_mentions=quiet)


async def setup(bot: MafiaBot) -> None:
    await bot.add_cog(JudgeCog(bot))
