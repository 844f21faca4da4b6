"""The cyclic garbage a click leaves (issue 18, mafiabot/gcpolicy.py): what reference counting frees never
costs the garbage collector a walk, and at a thousand tables the collector's pauses were the click's tail.

The bot's own per-click objects must not form cycles: the panel drawn at every click is its components'
dicts alone (mafiabot.game.panel.DrawnPanel: no discord.py items that refer to their view), and a click on
a game's item goes to the game without the view discord.py would build around it (MafiaBot takes it from
INTERACTION_CREATE). What discord.py itself leaves cyclic (an Interaction
and its InteractionResponse refer to each other) is its own, and not counted here."""

from __future__ import annotations

import collections
import gc

from fakediscord import Club, FakeDiscord
from game_driver import MEMBER_EDIT, TableDriver

from mafiabot.bot import MafiaBot

PASSES = 5


def _kind(obj: object) -> str:
    kind = type(obj)
    return f"{kind.__module__}.{kind.__qualname__}"


class _Sentinel:
    """A cycle made on purpose while the garbage is kept: proves the collection below saw the window."""

    def __init__(self) -> None:
        self.me = self


async def test_passes_leave_no_cyclic_garbage_of_the_bots_own(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:10])
    await d.start("classic")
    await d.pass_speech()  # warm-up: whatever a first click builds once (caches, lazily made objects)
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)  # what the next collection finds unreachable goes to gc.garbage, kept
    try:
        passes = 0
        for _ in range(PASSES):
            assert d.state.step.kind == "speech"
            await d.pass_speech()
            passes += 1
        _Sentinel()
        gc.collect()
        garbage = collections.Counter(_kind(obj) for obj in gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert passes == PASSES and garbage[f"{__name__}._Sentinel"] == 1
    ours = {kind: n for kind, n in garbage.items() if kind.split(".")[0] in ("mafiabot", "engine", "audio")}
    views = {kind: n for kind, n in garbage.items() if kind.startswith("discord.ui.")}
    assert ours == {} and views == {}, (ours, views)


async def test_the_panel_last_sent_is_kept_as_nothing_the_collector_walks(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    """A table keeps the panel it last sent to compare the next one with: as bytes (its JSON), not as the
    components' dicts, a few dozen containers a click that survived until the next panel and so were
    walked and promoted by the collector's young collections (issue 18)."""
    d = TableDriver(fake, club, bot, club.players[:7])
    await d.start("classic")
    await d.pass_speech()
    await d.settled()
    assert d.table is not None
    shown = d.table._panel_shown
    assert shown is not None and not gc.is_tracked(shown)
