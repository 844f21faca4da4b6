"""The surfaces an English server meets outside a game's own run (issue 16), each through the local
Discord in a few steps: `/mafia check`, … Not one Russian (Cyrillic) letter may reach any of them; the
Russian twins are checked where the Russian is tested (tests/bot/test_bot_members.py, …)."""

from __future__ import annotations

import json
import re

import pytest
from conduct_helpers import Game
from fakediscord import MEMBER_EDIT, Club, FakeDiscord
from fakediscord import permissions as perms
from fakediscord.world import Role

from mafiabot.bot import MafiaBot

CYRILLIC = re.compile("[А-Яа-яЁё]")


@pytest.mark.game(language="en")
async def test_check_in_english(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    player = club.players[0]
    await fake.join_voice(player, club.voice)
    report = await (await fake.slash(player, "mafia check", channel=club.text)).wait_followup()
    dm = await fake.wait_for_dm(player)
    assert dm.content.startswith("Connection check: direct messages work.")
    assert "✅ Direct messages: I sent you a test message." in report.content
    assert f"✅ Voice channel <#{club.voice.id}>: all the permissions needed are there." in report.content
    assert f"✅ Text channel <#{club.text.id}>: all the permissions needed are there." in report.content
    assert "helper bots needed are: 10 players — " in report.content, report.content
    assert CYRILLIC.findall(report.content + dm.content) == [], report.content


@pytest.mark.game(language="en")
@pytest.mark.club(bot_permissions=perms.MOVE_MEMBERS)
async def test_check_in_english_names_what_is_missing(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    player = club.players[0]
    player.user.dms_open = False
    report = await (await fake.slash(player, "mafia check", channel=club.text)).wait_followup()
    assert "❌ I cannot send you direct messages" in report.content
    assert "➖ You are not in a voice channel" in report.content
    threads = f"❌ Threads in <#{club.text.id}>: the bot lacks permissions: Manage Threads (needed for the"
    assert threads in report.content, report.content
    assert "⚠️ Without «Manage Messages» in " in report.content, report.content
    assert CYRILLIC.findall(report.content) == [], report.content


@pytest.fixture
def host(fake: FakeDiscord, club: Club) -> Role:
    """The server's host role (made before the bot connects, like any existing role)."""
    role = fake.world.add_role(club.guild, "Judge")
    club.players[0].roles.append(role.id)
    return role


def _russian(*texts: str) -> list[str]:
    return [t[:200] for t in texts if CYRILLIC.search(t)]


@pytest.mark.game(language="en")
async def test_a_stored_games_card_and_protocol_in_english(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    """`/mafia game` while the game runs (seats, no roles) and once it is stopped (roles, results)."""
    g = Game(fake, club, bot, players=7)
    table = await g.start("classic")
    await g.skip_until(lambda s: s.phase == "night")
    record = await fake.slash(g.players[3], "mafia game", channel=club.text, game_id=table.game_id)
    assert record.content.startswith(f"**Game #{table.game_id}** · classic · "), record.content
    assert " · in progress · winners: —" in record.content, record.content
    assert f"#1 <@{g.member(1).id}>, fouls: 0" in record.content, record.content
    protocol = record.message.files[f"mafia-game-{table.game_id}.txt"].decode()
    assert protocol.startswith(f"Game #{table.game_id} · "), protocol[:200]
    assert "(the game is on: the roles and night moves are shown once it is over)" in protocol
    said = [record.content, protocol]

    await g.command("stop")
    await fake.wait_for(lambda: not g.games.tables, what="the table to close")
    await g.settled()
    record = await fake.slash(g.players[3], "mafia game", channel=club.text, game_id=table.game_id)
    assert " · stopped · " in record.content, record.content
    mafia = g.seats_with("mafioso")[0]
    assert f"#{mafia} <@{g.member(mafia).id}> — Mafia (mafia), " in record.content, record.content
    protocol = record.message.files[f"mafia-game-{table.game_id}.txt"].decode()
    assert f"#{mafia} {g.member(mafia).user.username} — Mafia" in protocol, protocol[:400]
    assert "[private] " in protocol, protocol
    said += [record.content, protocol]
    assert _russian(*said) == [], _russian(*said)


@pytest.mark.game(language="en")
async def test_the_judges_and_tournaments_answers_in_english(
    host: Role, bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    bot.games.storage.update_guild_settings(club.id, host_role_id=host.id)  # type: ignore[attr-defined]
    owner = club.players[0]
    said = []

    async def ask(command: str, **options: object) -> str:
        answer = await fake.slash(owner, command, channel=club.text, **options)
        said.append(answer.content)
        return answer.content

    assert await ask("mafia tournament table") == (
        "There have been no tournaments on this server yet (/mafia tournament start)."
    )
    assert (await ask("mafia tournament start", name="Autumn")).startswith(
        "Tournament «Autumn» is open. Judge: "
    )
    assert (await ask("mafia tournament start", name="Winter")).startswith(
        "The tournament «Autumn» is already on"
    )
    assert await ask("mafia tournament table") == "**Tournament «Autumn»**: no confirmed games yet."
    assert (await ask("mafia judge key")).startswith("The protocols' key (Ed25519): `")
    assert await ask("mafia judge confirm") == "There is no finished game in this channel."
    assert await ask("mafia judge points", seat=1, points=0.3, reason="x") == (
        "There is no finished game in this channel."
    )
    assert (await ask("mafia tournament end")).startswith(
        "The tournament is closed.\n**Tournament «Autumn»**"
    )
    assert await ask("mafia tournament end") == "No tournament is open."
    new = await ask("mafia season new")
    assert new.startswith("A new season has begun: Season 2."), new
    assert _russian(*said) == [], said


@pytest.mark.game(language="en")
async def test_an_automatic_fouls_button_and_form_in_english(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    g = Game(fake, club, bot)
    await g.start("city")
    await g.skip_until(lambda s: s.phase == "day" and s.step.kind == "speech")
    speaker = g.state.step.seat
    own = await g.nominate(speaker, speaker)
    [note] = [m for m in fake.messages(club.text) if m.content.startswith("🤖 ")]
    assert note.components[0]["components"][0]["label"] == "Withdraw the foul", note.components
    refused = await fake.click(club.players[8], note, label="Withdraw the foul")
    assert refused.modal is None and refused.ephemeral
    opened = await fake.click(g.moderator, note, label="Withdraw the foul")
    assert opened.modal is not None and opened.modal["title"] == "Withdraw the foul", opened.modal
    assert json.dumps(opened.modal).count('"Reason"') == 1, opened.modal
    done = await fake.submit_modal(g.moderator, opened, {"reason": "wrong seat"})
    await g.settled()
    assert g.state.fouls_of(speaker) == 0
    said = [
        own.content,
        note.content,
        refused.content,
        done.content,
        json.dumps(opened.modal, ensure_ascii=False),
    ]
    assert _russian(*said) == [], said


@pytest.mark.game(language="en")
async def test_the_lobbys_variants_are_answered_in_english_words(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    members = club.players[:7]
    for member in members:
        await fake.join_voice(member, club.voice)
    opened = await fake.slash(members[0], "mafia new", channel=club.text, ruleset="classic")
    lobby_id = opened.message.id
    for member in members[1:]:
        await fake.click(member, next(m for m in fake.messages(club.text) if m.id == lobby_id), label="Join")
    lobby = next(m for m in fake.messages(club.text) if m.id == lobby_id)
    settings = await fake.click(members[0], lobby, label="Settings")
    custom_id = settings.message.components[0]["components"][0]["custom_id"]
    bad = await fake.select(members[0], settings.message, custom_id, ["ninja"])
    assert bad.content == (
        "These variants do not go together: "
        "The ninja plays only in the yakuza clan: turn on the «yakuza» variant."
    ), bad.content
    # Variants the rules keep apart: named in words, not by the loader's Russian sentence.
    apart = await fake.select(
        members[0], settings.message, custom_id, ["judges", "judges_checks_excluded", "lawyer"]
    )
    assert apart.content == (
        "These variants do not go together: the variant «With judges, variant 1: no commissar, lawyer or "
        "ninja» cannot be combined with «A lawyer bribed by the mafia instead of one honest citizen»."
    ), apart.content
    chosen = await fake.select(members[0], settings.message, custom_id, ["maniac"])
    assert chosen.content.startswith("Variants: A maniac instead of one honest citizen. Roles: "), (
        chosen.content
    )
    assert _russian(bad.content, apart.content, chosen.content) == []


@pytest.mark.game(language="en")
@pytest.mark.web(enabled=True, port=0)
async def test_the_web_command_in_english(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    answer = await fake.slash(club.players[1], "mafia web", channel=club.text)
    lines = answer.content.splitlines()
    assert lines[0].startswith("Season table: http") and lines[1].startswith("Games: http"), lines
    assert lines[2].startswith("The links work until <t:"), lines
    refused = await fake.slash(club.players[1], "mafia web", channel=club.text, public=True)
    assert refused.content.startswith("This is for hosts"), refused.content
    assert _russian(answer.content, refused.content) == []


@pytest.mark.game(language="en")
async def test_a_lobby_refused_for_its_size_in_english(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    """Hobby World's table is for 6 to 16: starting with five is refused in English words, not with the
    book's Russian title («Мафия (Hobby World)») nor a preset's id."""
    members = club.players[:5]
    for member in members:
        await fake.join_voice(member, club.voice)
    opened = await fake.slash(members[0], "mafia new", channel=club.text, ruleset="hobbyworld")
    lobby_id = opened.message.id
    for member in members[1:]:
        await fake.click(member, next(m for m in fake.messages(club.text) if m.id == lobby_id), label="Join")
    lobby = next(m for m in fake.messages(club.text) if m.id == lobby_id)
    refused = await fake.click(members[0], lobby, label="Start the game")
    assert refused.ephemeral and refused.content == "These rules are for 6 to 16 players, not 5.", (
        refused.content
    )
    assert not bot.games.tables


@pytest.mark.game(language="en")
async def test_the_audit_logs_mute_reasons_follow_the_bots_language(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    """A server with no language of its own on an English bot: the mutes' and unmutes' reasons in the
    audit log are English like the rest of its game (they followed the stored setting, Russian if none)."""
    g = Game(fake, club, bot, players=7)
    await g.start("classic")
    await g.skip_until(lambda s: s.phase == "night")
    await g.command("stop")
    await fake.wait_for(lambda: not g.games.tables, what="the table to close")
    await g.settled()
    reasons = {c.reason for c in fake.calls_to(MEMBER_EDIT, status=200) if "mute" in (c.json or {})}
    assert reasons == {"Mafia: the game's turn", "Mafia: giving the microphone back"}, reasons


@pytest.mark.game(language="en")
@pytest.mark.club(players=12)
@pytest.mark.helpers(count=3)
async def test_check_names_the_helper_bots_in_english(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    """The helpers' lines (tests/bot/test_helper_setup.py has the Russian): who is ready, why the others are
    not, and how many a table needs, with the permission's English name."""
    first, second, _ = fake.accounts
    await fake.kick_bot(club, first)
    role = next(r for r in club.guild.roles.values() if r.name == second.user.username)
    await fake.set_role_permissions(club, role, perms.VIEW_CHANNEL | perms.CONNECT)
    for player in club.players:
        await fake.join_voice(player, club.voice)
    answer = await fake.slash(club.players[0], "mafia check", channel=club.text)
    report = (await answer.wait_followup()).content
    assert f"🤝 Helper bots in <#{club.voice.id}>: 1 of 3 ready." in report, report
    assert "⚠️ Helper 1: not invited to the server; the main bot does its work." in report, report
    assert "⚠️ Helper 2: no «Mute Members» permission in the channel; the main bot does its work." in report
    assert (
        "10 players — none needed (better 1), 12 players — 1 (better 2), 16 players — 1 (better 2)" in report
    ), report
    assert "`mafiabot invite --helper`" in report
    assert CYRILLIC.findall(report) == [], report


@pytest.mark.game(language="en")
async def test_a_stored_fouls_reason_is_said_in_english(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    """A foul is stored in the rulebook's words («Маты: loud»); the game's card and the fouls' list on an
    English server say the reason in English, with the moderator's own note as he wrote it."""
    g = Game(fake, club, bot)
    table = await g.start("city")
    await g.skip_until(lambda s: s.phase == "day" and s.step.kind == "speech")
    seat = g.state.step.seat
    await g.command("foul", reason="swearing", seat=seat, note="loud")
    await g.command("foul", reason="insults", seat=seat)
    record = await fake.slash(g.players[3], "mafia game", channel=club.text, game_id=table.game_id)
    fouls = [line for line in record.content.splitlines() if line.startswith("Foul #")]
    assert [line.split(", ", 2)[2].split(" (<@")[0] for line in fouls] == ["Swearing: loud", "Insults"], fouls
    listed = await g.command("conduct list")
    assert [row.split(" · ")[3] for row in listed.content.splitlines()] == ["Swearing: loud", "Insults"], (
        listed.content
    )
    assert _russian(record.content, listed.content) == [], (record.content, listed.content)


@pytest.mark.game(language="en")
async def test_a_lobby_with_a_variant_the_rules_lack_is_refused_in_english(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    """`/mafia new options=…` is typed: a variant the rules lack is named as typed, in English words, not
    as the loader's «unknown option (known: …)» with every id of the preset."""
    await fake.join_voice(club.players[0], club.voice)
    refused = await fake.slash(
        club.players[0], "mafia new", channel=club.text, ruleset="classic", options="maniac, dragons"
    )
    assert refused.ephemeral and refused.content == (
        "The rules could not be loaded: these rules have no variant «dragons»."
    ), refused.content
    assert not bot.games.lobbies


@pytest.mark.game(language="en")
async def test_help_and_the_rules_buttons_in_english(bot: MafiaBot, fake: FakeDiscord, club: Club) -> None:
    """`/mafia help` names the profile menu as English clients see it, and `/mafia rules`' buttons carry
    the rules' English titles (they had the rulebooks' Russian ones)."""
    helped = await fake.slash(club.players[0], "mafia help", channel=club.text)
    assert "«Apps → Mafia: profile»" in helped.content, helped.content
    rules = await fake.slash(club.players[0], "mafia rules", channel=club.text)
    labels = [b["label"] for row in rules.message.components for b in row["components"]]
    assert "City Mafia" in labels and "Classic Mafia" in labels, labels
    city = await fake.click(club.players[0], rules.message, label="City Mafia")
    assert city.content.startswith("**City Mafia** (`city`)"), city.content
    shown = [
        helped.content,
        rules.content,
        json.dumps(rules.message.components, ensure_ascii=False),
        city.content,
    ]
    assert _russian(*shown) == [], _russian(*shown)
