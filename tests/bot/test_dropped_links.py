"""A connection to Discord that breaks before its answer (a reset link, a proxy giving up: aiohttp's
`ServerDisconnectedError`, which discord.py passes on) in the middle of a game: the step's mutes still
come, and every line of the game arrives exactly once, whether the request was lost on its way there or
only its answer on the way back (Discord answers a repeated nonce with the message it created)."""

from __future__ import annotations

from fakediscord import MEMBER_EDIT, MESSAGE_SEND, Club, FakeDiscord
from game_driver import TableDriver

from mafiabot.bot import MafiaBot
from mafiabot.retry import ATTEMPTS


async def _to_a_speech(d: TableDriver) -> None:
    while not (d.state.phase == "day" and d.state.step.kind == "speech"):
        assert not d.state.over
        await d.skip_step()


async def test_a_speech_hand_over_through_dropped_links_still_reaches_the_next_speaker(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    await d.start("classic")
    await _to_a_speech(d)
    d.assert_mutes()
    # More drops than one edit's own retries: the convergence fails as a whole and must come back by
    # itself, with nothing else happening at the table.
    fake.faults.drop(MEMBER_EDIT, times=ATTEMPTS + 1)
    await d.pass_speech()
    speaker = d.state.step.seat
    await fake.wait_for(
        lambda: not fake.voice_state(d.member(speaker)).mute,  # type: ignore[union-attr]
        timeout=60,
        what="the next speaker unmuted",
    )
    await d.settled()
    d.assert_mutes()
    assert d.state.step.seat == speaker, "the game did not move meanwhile"
    dropped = [s for r, s in fake.faults.served if r == MEMBER_EDIT]
    assert len(dropped) == ATTEMPTS + 1


async def test_a_line_whose_answer_was_lost_is_posted_once_and_one_never_sent_is_sent(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    table = await d.start("classic")
    before = d.public_texts()
    fake.faults.drop(MESSAGE_SEND, served=True)  # carried out; the bot never hears so
    table.post("Первая строка")
    await d.settled()
    fake.faults.drop(MESSAGE_SEND)  # lost on its way: nothing was posted
    table.post("Вторая строка")
    await d.settled()
    assert d.public_texts()[len(before) :] == ["Первая строка", "Вторая строка"]
    sends = [c for c in fake.calls if c.route == MESSAGE_SEND]
    assert len({c.json["nonce"] for c in sends[-4:]}) == 2, "each line kept its nonce through its retry"
