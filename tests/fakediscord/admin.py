"""What a server's administrators do to the bot while it runs: change a channel's overwrites or a
member's roles (a role's permissions: `Driver.set_role_permissions`). Each change is dispatched as
Discord does (CHANNEL_UPDATE, GUILD_MEMBER_UPDATE) and returns once the bot has processed it, so a
test can take a permission away in the middle of a game and see what the bot does next."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .payloads import channel_json, member_json
from .world import Channel, Member, Overwrite, Role

if TYPE_CHECKING:
    from .server import FakeDiscord


class ServerAdmin:
    async def set_overwrite(
        self: FakeDiscord, channel: Channel, target: Role | Member, *, allow: int = 0, deny: int = 0
    ) -> None:
        """Replace the channel's overwrite for a role (@everyone is the guild's id) or a member."""
        kind = 0 if isinstance(target, Role) else 1
        channel.overwrites = [ow for ow in channel.overwrites if ow.id != target.id]
        channel.overwrites.append(Overwrite(target.id, kind, allow, deny))
        self.dispatch("CHANNEL_UPDATE", channel_json(channel, self.world))
        await self.gateway.flush()

    async def give_role(self: FakeDiscord, member: Member, role: Role) -> None:
        member.roles.append(role.id)
        self.dispatch("GUILD_MEMBER_UPDATE", {"guild_id": str(member.guild_id), **member_json(member)})
        await self.gateway.flush()
