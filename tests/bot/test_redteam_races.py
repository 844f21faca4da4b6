"""Red team: a click racing itself (a double click, a client that resends): both reach the bot before
either is answered. The second must change nothing the first did not: one game per lobby, one seat per
player, one vote per voter, one speech ended per «Пас»."""

from __future__ import annotations

import pytest
from fakediscord import Club, FakeDiscord
from game_driver import MEMBER_EDIT, TableDriver

from engine import queries
from mafiabot.bot import MafiaBot


async def _twice(fake: FakeDiscord, send: object) -> list[object]:
    first = await send(wait=False)  # type: ignore[operator]
    second = await send(wait=False)  # type: ignore[operator]
    for record in (first, second):
        await fake.wait_for(lambda r=record: r.callback is not None, what="both answered")  # type: ignore[attr-defined]
    return [first, second]


@pytest.mark.club(players=8)
async def test_double_clicks_in_the_lobby_join_once_and_start_one_game(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    d.without_host_voice()
    await d.seat_everyone()
    await d.open_lobby("classic")
    join = d.t("lobby-button-join")
    for p in d.players[1:]:
        message = d.lobby_message()
        await _twice(fake, lambda wait, p=p, m=message: fake.click(p, m, label=join, wait=wait))
    lobby = d.games.lobbies[club.voice.id]
    assert sorted(lobby.players) == sorted(p.id for p in d.players), lobby.players
    message = d.lobby_message()
    start = d.t("lobby-button-start")
    await _twice(fake, lambda wait: fake.click(d.players[0], message, label=start, wait=wait))
    started = d.t("lobby-started")
    await fake.wait_for(lambda: started in d.lobby_message().content, what="the start")
    d.table = d.games.tables[club.voice.id]
    await d.settled()
    storage = d.games.storage
    assert storage is not None
    assert len(storage.running_games()) == 1, storage.running_games()
    assert len(d.table.session.seats) == 7


@pytest.mark.club(players=8)
async def test_a_double_pass_ends_one_speech_and_a_double_vote_counts_once(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    await d.start("classic")
    assert d.state.step.seat == 1
    panel = d.panel()
    speaker = d.member(1)
    label = d.t("control-pass")
    await _twice(fake, lambda wait: fake.click(speaker, panel, label=label, wait=wait))
    await d.settled()
    assert d.state.step.kind == "speech" and d.state.step.seat == 2, d.state.step
    d.assert_mutes()
    # To a vote: the rest of the introductions, the acquaintance night, the discussion, one nomination.
    while d.state.step.kind == "speech":
        await d.pass_speech()
    while d.state.step.kind != "nominations":
        assert not d.state.over
        await d.skip_step()
    await d.nominate(1, 5)
    await d.skip_step()
    while d.state.step.kind == "speech":
        await d.pass_speech()
    assert d.state.step.kind == "vote", d.state.step
    candidate = d.state.step.seat
    voter = sorted(queries.voters(d.state))[0]
    panel = d.panel()
    vote = next(b["label"] for b in panel.buttons() if b["custom_id"].endswith(f":vote:{candidate}"))
    log = len(d.table.session.log) if d.table else 0
    await _twice(fake, lambda wait: fake.click(d.member(voter), panel, label=vote, wait=wait))
    await d.settled()
    assert d.table is not None
    added = d.table.session.log[log:]
    assert len(added) <= 1, added


@pytest.mark.club(players=8)
async def test_a_join_that_races_the_start_is_seated_or_refused_never_shown_unseated(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:8])
    d.without_host_voice()
    await d.seat_everyone()
    await d.open_lobby("classic")
    join = d.t("lobby-button-join")
    for p in d.players[1:7]:
        await fake.click(p, d.lobby_message(), label=join)
    late = d.players[7]
    message = d.lobby_message()
    started = await fake.click(d.players[0], message, label=d.t("lobby-button-start"), wait=False)
    joined = await fake.click(late, message, label=join, wait=False)
    for record in (started, joined):
        await fake.wait_for(lambda r=record: r.callback is not None, what="both answered")
    done = d.t("lobby-started")
    await fake.wait_for(lambda: done in d.lobby_message().content, what="the start")
    d.table = d.games.tables[club.voice.id]
    await d.settled()
    seated = d.table.session.seat_of(late.id) is not None
    if not seated:
        assert joined.ephemeral, joined.callback  # told privately that he is not in
        assert late.user.username not in d.lobby_message().content, d.lobby_message().content


@pytest.mark.club(players=8)
async def test_a_cancel_that_races_the_start_leaves_one_clear_outcome(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    d.without_host_voice()
    await d.seat_everyone()
    await d.open_lobby("classic")
    for p in d.players[1:]:
        await fake.click(p, d.lobby_message(), label=d.t("lobby-button-join"))
    message = d.lobby_message()
    creator = d.players[0]
    started = await fake.click(creator, message, label=d.t("lobby-button-start"), wait=False)
    cancelled = await fake.click(creator, message, label=d.t("lobby-button-cancel"), wait=False)
    for record in (started, cancelled):
        await fake.wait_for(lambda r=record: r.callback is not None, what="both answered")
    await fake.wait_for(
        lambda: club.voice.id in d.games.tables or club.voice.id not in d.games.lobbies, what="an outcome"
    )
    storage = d.games.storage
    assert storage is not None
    if club.voice.id in d.games.tables:
        d.table = d.games.tables[club.voice.id]
        await d.settled()
        assert cancelled.ephemeral, cancelled.callback  # the game runs: the cancel is refused privately
        assert len(storage.running_games()) == 1
    else:
        assert storage.running_games() == [] and not d.muted_seats()


@pytest.mark.club(players=8)
async def test_moderator_commands_sent_twice_at_once_act_once(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    await d.start("classic")
    creator = d.players[0]
    assert d.table is not None
    session = d.table.session
    serial = session.serial
    await _twice(fake, lambda wait: fake.slash(creator, "mafia skip", channel=club.text, wait=wait))
    await d.settled()
    assert session.serial == serial + 1, "one step skipped, not two"
    await _twice(fake, lambda wait: fake.slash(creator, "mafia kick", channel=club.text, seat=4, wait=wait))
    await d.settled()
    assert 4 not in d.state.alive
    records = await _twice(fake, lambda wait: fake.slash(creator, "mafia stop", channel=club.text, wait=wait))
    assert all(r.ephemeral for r in records), [r.callback for r in records]  # type: ignore[attr-defined]
    await fake.wait_for(lambda: not d.games.tables, what="the table to close")
    await fake.wait_for(lambda: not d.muted_seats(), what="everyone given back")
    storage = d.games.storage
    assert storage is not None and storage.running_games() == []


@pytest.mark.club(players=8)
async def test_a_foul_withdrawn_twice_at_once_is_withdrawn_once(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    d = TableDriver(fake, club, bot, club.players[:7])
    await d.start("city")
    creator = d.players[0]
    given = await fake.slash(creator, "mafia foul", channel=club.text, reason="shouting", seat=2)
    assert given.callback is not None
    await d.settled()
    assert d.state.fouls_of(2) == 1, given.content
    storage = d.games.storage
    assert storage is not None and d.table is not None
    [foul] = storage.fouls(d.table.game_id)
    public = len(fake.messages(club.text))
    records = await _twice(
        fake,
        lambda wait: fake.slash(
            creator, "mafia conduct withdraw", channel=club.text, foul_id=foul.id, reason="ошибка", wait=wait
        ),
    )
    await d.settled()
    assert all(r.ephemeral for r in records), [r.callback for r in records]  # type: ignore[attr-defined]
    assert d.state.fouls_of(2) == 0
    said = [m.content for m in fake.messages(club.text)[public:] if "сня" in m.content.lower()]
    assert len(said) <= 1, said
