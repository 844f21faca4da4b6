"""The server's «mafia host» role: its members moderate any game, others cannot (issue 5, part 6)."""

from __future__ import annotations

import pytest
from fakediscord import Club, FakeDiscord
from fakediscord.world import Role
from game_driver import TableDriver

from mafiabot.bot import MafiaBot


@pytest.fixture
def host_role(fake: FakeDiscord, club: Club) -> Role:
    """Made before the bot connects, so the role arrives with GUILD_CREATE like any existing role."""
    role = fake.world.add_role(club.guild, "Ведущий мафии")
    club.players[8].roles.append(role.id)  # a member who does not play
    return role


async def test_the_host_role_moderates_and_others_cannot(
    host_role: Role, bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    driver = TableDriver(fake, club, bot, club.players[:7])
    await driver.start("classic")
    storage = bot.games.storage  # type: ignore[attr-defined]
    host, outsider = club.players[8], club.players[9]

    refused = await fake.slash(outsider, "mafia pause", channel=club.text)
    assert refused.ephemeral and "ведущий" in refused.content.lower()
    assert driver.table is not None and driver.table.session.paused_left is None

    storage.update_guild_settings(club.id, host_role_id=host_role.id)
    allowed = await fake.slash(host, "mafia pause", channel=club.text)
    assert allowed.ephemeral and "Пауза" in allowed.content
    assert driver.table.session.paused_left is not None

    still_refused = await fake.slash(outsider, "mafia resume", channel=club.text)
    assert still_refused.ephemeral and driver.table.session.paused_left is not None
