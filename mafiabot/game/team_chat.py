"""A team's night chat (RULESETS.md D-G12: «city: the mafia gets a private text chat open only during its
night minute»), for every team whose preset says ``chat = true`` (city's mafia, and so the mafia of any
variant that extends city). A private thread under the game's text channel holds the living members of
the team; it opens when the team wakes (the acquaintance and each night's shot) and is locked and
archived when the team falls asleep and at the end of the game. Elsewhere teams agree by clicks only,
with no free text.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

from audio import phrases
from engine import queries, view_for
from engine.events import Event
from engine.state import GameState
from mafiabot.i18n import DEFAULT, role_display, text

if TYPE_CHECKING:
    from mafiabot.game.table import Table

log = logging.getLogger(__name__)


def has_chat(s: GameState) -> bool:
    return any(team.chat for team in s.ruleset.teams.values())


def awake_team(s: GameState) -> str | None:
    """The team with a chat woken at the current night step, if any."""
    if s.over or s.phase != "night" or s.step.kind not in ("night", "meet"):
        return None
    if s.ruleset.params.get("chat_meeting_only") and not (s.intro and s.step.kind == "meet"):
        return None  # FIIM D-FI4, D-FI17: «the night-0 meeting is the only time a black-team channel is open»
    steps = s.ruleset.intro_night if s.intro else s.ruleset.night_steps
    step = next((st for st in steps if st.id == s.step.night_step), None)
    if step is None or not step.team or not s.ruleset.teams[step.team].chat:
        return None
    return step.team


def team_roster(s: GameState, seat: int, language: str = DEFAULT) -> str | None:
    """D-G12 city: «Ваша команда: номер 2 — Дон, номер 8 — Мафия.», for the team's thread at the intro;
    read through the engine's view of one member (what every member was shown at the deal)."""
    view = view_for(s, seat)
    team = s.team_of(seat)
    if not team or not s.ruleset.teams[team].show_roles:
        return None
    roles = view["roles"]
    members = [
        {"seat": x, "role": role_display(language, s.ruleset, roles[str(x)])}
        for x in view["team"]
        if str(x) in roles
    ]
    if not members:
        return None
    return phrases.render("priv_team_roles", {"members": members}, numbers="digits", language=language)


def _name(game: int, language: str = DEFAULT) -> str:
    return text(language, "team-chat-title", game=str(game))


class TeamChats:
    """One thread per running game; what is open is decided from the state after every command."""

    def __init__(self) -> None:
        self.threads: dict[int, discord.Thread] = {}
        self.members: dict[int, set[int]] = {}
        self.open: set[int] = set()
        self.failed: set[int] = set()  # games told once that their chat could not be opened

    async def on_events(self, table: Table, events: list[Event]) -> None:
        s = table.session.state
        if not has_chat(s):
            return
        game = table.game_id
        team = awake_team(s)
        if team is not None and game not in self.open:
            self.open.add(game)
            awake = sorted(queries.awake(s))
            users = {table.session.user_of(x) for x in awake}
            roster = team_roster(s, awake[0], table.session.language) if s.intro and awake else None
            # in order with the table's other messages
            table.enqueue(lambda: self._open(table, users, roster))
        elif team is None and game in self.open:
            self.open.discard(game)
            table.enqueue(lambda: self._close(table))
        if s.over:
            table.enqueue(lambda: self._forget(game))

    async def on_restored(self, table: Table) -> None:
        """After a restart: adopt the game's thread if Discord still lists it, and close it if the team
        is no longer awake (it may have been left open when the bot stopped)."""
        s = table.session.state
        channel = table.channel
        if not has_chat(s) or not isinstance(channel, discord.TextChannel):
            return
        game = table.game_id
        thread = next((t for t in channel.threads if t.name == _name(game)), None)
        if thread is None:
            return
        self.threads[game] = thread
        # Everyone who may have been let in; the next opening takes out who is no longer living.
        chats = [tid for tid, team in s.ruleset.teams.items() if team.chat]
        seats = {x for tid in chats for x in s.team_members(tid, living_only=False)}
        self.members[game] = {table.session.user_of(x) for x in seats}
        if awake_team(s) is not None:
            self.open.add(game)
        elif not thread.locked:
            table.enqueue(lambda: self._close(table))

    async def _open(self, table: Table, users: set[int], roster: str | None = None) -> None:
        game = table.game_id
        try:
            thread = self.threads.get(game)
            if thread is None:
                channel = table.channel
                if not isinstance(channel, discord.TextChannel):
                    # A voice channel's own chat (the game opened there) has no threads: said once, as a
                    # failure is, rather than leaving the mafia without a chat and nobody knowing why.
                    if game not in self.failed:
                        self.failed.add(game)
                        table.post(text(table.session.language, "team-chat-no-threads"))
                    return
                thread = await channel.create_thread(
                    name=_name(game, table.session.language),
                    type=discord.ChannelType.private_thread,
                    invitable=False,
                    reason=text(table.session.language, "team-chat-reason"),
                )
                self.threads[game] = thread
            else:
                thread = await thread.edit(archived=False, locked=False)
                self.threads[game] = thread
            present = self.members.setdefault(game, set())
            for uid in sorted(present - users):  # eliminated members leave the chat
                await thread.remove_user(discord.Object(uid))
                present.discard(uid)
            for uid in sorted(users - present):
                await thread.add_user(discord.Object(uid))
                present.add(uid)
            await thread.send(text(table.session.language, "team-chat-open"))
            if roster:
                await thread.send(roster)
        except discord.HTTPException as exc:
            log.info("The mafia's chat could not be opened: %s", exc, extra={"game_id": game})
            if game not in self.failed:  # once a game; it says nothing about who the mafia are
                self.failed.add(game)
                table.post(text(table.session.language, "team-chat-failed"))

    async def _close(self, table: Table) -> None:
        thread = self.threads.get(table.game_id)
        if thread is None:
            return
        try:
            await thread.send(text(table.session.language, "team-chat-closed"))
            self.threads[table.game_id] = await thread.edit(archived=True, locked=True)
        except discord.HTTPException:
            log.info("The mafia's chat could not be closed", extra={"game_id": table.game_id})

    async def _forget(self, game: int) -> None:
        self.threads.pop(game, None)
        self.members.pop(game, None)
        self.open.discard(game)
        self.failed.discard(game)
