"""Other bot accounts beside the bot under test: each one a token, a bot user and an application (whose
id is the user's, as for every bot), like the helper bots a server invites for mute bursts (issue 20).

A request's `Authorization` names its account: the stand-in answers `GET /users/@me` and
`/oauth2/applications/@me` with that account, checks its own permissions (a bot that is not a member of
the guild gets 403 `50001 Missing Access` on the guild's member routes, like on Discord) and spends its
own rate-limit buckets. A revoked token (reset on the developer portal) answers 401 from then on.
Inviting or kicking an account dispatches what the bot under test sees (GUILD_ROLE_CREATE for the
role Discord makes for an invited bot, GUILD_MEMBER_ADD / GUILD_MEMBER_REMOVE).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from . import permissions as perms
from .payloads import member_json, role_json, user_json
from .world import Member, User

if TYPE_CHECKING:
    from .driver import Club
    from .server import FakeDiscord

# What a helper's invite asks for: it must see and connect to the voice channel for Mute Members to
# count there (without Connect a member has none of a voice channel's own permissions).
HELPER_DEFAULT = perms.VIEW_CHANNEL | perms.CONNECT | perms.MUTE_MEMBERS


@dataclass
class BotAccount:
    token: str
    user: User

    @property
    def id(self) -> int:
        return self.user.id


class BotAccounts:
    """Mixed into `FakeDiscord`: `tokens` maps every valid token to its bot user (the main one too)."""

    world: Any
    tokens: dict[str, User]
    revoke_after: dict[str, int]  # token -> requests still served before it is revoked
    accounts: list[BotAccount]  # every account added, in order
    revoked: dict[str, User]  # tokens that answer 401 now, and whose they were (RestCall.bot_id)

    def add_bot_account(self: FakeDiscord, username: str = "mafiabot-helper") -> BotAccount:
        """Another application with a bot; it is on no server until invited."""
        user = self.world.add_user(username, bot=True)
        token = f"fake.{secrets.token_urlsafe(24)}"
        self.tokens[token] = user
        account = BotAccount(token, user)
        self.accounts.append(account)
        return account

    def revoke_token(self: FakeDiscord, account: BotAccount, *, after: int = 0) -> None:
        """The token was reset on the developer portal: every later request with it answers 401.
        `after=n`: once n more of its requests were served (a helper that vanishes mid-burst)."""
        if after > 0:
            self.revoke_after[account.token] = after
        elif (user := self.tokens.pop(account.token, None)) is not None:
            self.revoked[account.token] = user

    def served(self: FakeDiscord, token: str) -> None:
        """A request with this token was served (rest.py): count it towards a planned revocation."""
        left = self.revoke_after.get(token)
        if left is not None:
            self.revoke_after[token] = left - 1
            if left <= 1:
                del self.revoke_after[token]
                if (user := self.tokens.pop(token, None)) is not None:
                    self.revoked[token] = user

    def caller(self: FakeDiscord, authorization: str | None) -> User | None:
        if not authorization or not authorization.startswith("Bot "):
            return None
        return self.tokens.get(authorization.removeprefix("Bot "))

    async def invite_bot(
        self: FakeDiscord, club: Club, account: BotAccount, *, permissions: int = HELPER_DEFAULT
    ) -> Member:
        """The server adds the account with its invite's permissions (a role of its own)."""
        role = self.world.add_role(club.guild, account.user.username, permissions)
        self.dispatch("GUILD_ROLE_CREATE", {"guild_id": str(club.id), "role": role_json(role)})
        member = self.world.add_member(club.guild, account.user, roles=[role])
        self.dispatch("GUILD_MEMBER_ADD", {"guild_id": str(club.id), **member_json(member)})
        await self.gateway.flush()
        return member

    async def kick_bot(self: FakeDiscord, club: Club, account: BotAccount) -> None:
        """The server removes the account: it is no member any more (its member routes answer 50001)."""
        club.guild.members.pop(account.id, None)
        self.dispatch("GUILD_MEMBER_REMOVE", {"guild_id": str(club.id), "user": user_json(account.user)})
        await self.gateway.flush()
