"""Red team: a night action leaves no public trace before its step closes (promise 2: no sign of who
acted).

The leak games read what is public for secret words; this reads whether anything public happens at all
when a player acts at night. From the moment an actor picks in private until the step ends, the game's
channel gets no message, no edit (the panel, its components, their labels and disabled state), no member
is edited (mutes, nicknames), and the pick is answered privately: any of them, timed against the pick,
would tell the table that this role is alive and awake (in presets where night deaths stay hidden, a dead
role's step is played all the same)."""

from __future__ import annotations

import pytest
from fakediscord import Club, FakeDiscord
from game_driver import MEMBER_EDIT, TableDriver

import engine
from engine import queries
from mafiabot.bot import MafiaBot
from mafiabot.game import server_settings


def _public_since(d: TableDriver, mark: int) -> list[str]:
    text_channel = str(d.club.text.id)
    out = []
    for call in d.fake.calls[mark:]:
        if call.params.get("channel_id") == text_channel or call.route == MEMBER_EDIT:
            out.append(f"{call.method} {call.route}")
    return out


@pytest.mark.club(players=10)
@pytest.mark.parametrize("preset", engine.available_presets())
async def test_a_night_pick_changes_nothing_public_until_the_step_closes(
    preset: str, bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    fake.rate_limits.set(MEMBER_EDIT, 100, 1)
    storage = bot.games.storage
    assert storage is not None
    storage.set_guild_value(club.id, server_settings.TIMERS, {"night_action_seconds": 300})
    d = TableDriver(fake, club, bot, club.players[: 10 if preset == "fiim" else 9])
    await d.start(preset)
    picks = 0
    for _ in range(200):
        s = d.state
        if s.over or picks >= 6:
            break
        if s.phase == "night" and s.step.kind == "night":
            for seat in sorted(queries.actors(s)):
                try:
                    prompt = d.latest_prompt(seat)
                except LookupError:
                    continue
                select = next((c for c in prompt.items() if c["type"] == 3), None)
                if select is None:
                    continue
                target = select["options"][0]["value"]
                serial = d.table.session.serial if d.table else 0
                mark = len(fake.calls)
                answer = await fake.select(d.member(seat), prompt, select["custom_id"], [target])
                assert answer.ephemeral, answer.callback
                await d.settled()
                # Not even the last pick of the step closes it at once: it still lasts its drawn time.
                assert d.table is not None and d.table.session.serial == serial, s.step.night_step
                public = _public_since(d, mark)
                assert public == [], (s.step.night_step, public)
                picks += 1
        await d.skip_step()
    assert picks >= 2, picks
