"""A speech's hand-over is not posted as a line in the game's channel (issue 18: the line moved the panel
under it, a message create and a delete at every «Пас»); the host says it and the panel shows it. Here
every hand-over of random games of every preset with speeches: the table posts none of them, and the
panel's step says the same thing in the same words, in Russian and in English."""

from __future__ import annotations

import pytest

import engine
from engine.simulate import deal, play_random_game
from mafiabot.game.panel import status_line
from mafiabot.game.render import announces_turn_only, render
from mafiabot.game.session import GameSession, SeatInfo

# The kind of speech in the host's words → the words the panel must use for it.
_KINDS = {
    "ru": [
        (("Последнее слово",), "Последнее слово игрока №{seat}"),
        (("прощальной речи",), "Прощальная речь игрока №{seat}"),
        (("Оправдательная речь",), "Оправдательная речь игрока №{seat}"),
        (("Слово",), "Говорит игрок №{seat}"),
    ],
    "en": [
        (("last word",), "The last word of player {seat}"),
        (("farewell",), "The farewell speech of player {seat}"),
        (("defence",), "The defence of player {seat}"),
        (("The floor",), "Player {seat} speaks"),
    ],
}


class _Quiet:
    async def on_due(self, session: GameSession, serial: int) -> None:
        pass

    async def on_tick(self, session: GameSession, seconds_left: int) -> None:
        pass


def _session(preset: str, players: int, seed: int, language: str) -> GameSession:
    roles = deal(engine.load_ruleset(preset), players, seed)
    session = GameSession(
        game_id=seed,
        ruleset=engine.load_ruleset(preset),
        seats=[SeatInfo(i + 1, 100 + i, f"p{i + 1}") for i in range(players)],
        roles=roles,
        seed=seed,
        listener=_Quiet(),
    )
    session.language = language
    return session


@pytest.mark.parametrize("language", ["ru", "en"])
@pytest.mark.parametrize(
    ("preset", "rounds"),
    [
        ("classic", {"intro", "last_word", "tie_word"}),
        ("city", {"day", "tie_word", "farewell"}),
        ("simple", {"day", "farewell"}),
        ("fiim", {"day", "tie_word", "farewell"}),
    ],
)
async def test_every_hand_over_is_on_the_panel_in_the_hosts_words(
    preset: str, rounds: set[str], language: str
) -> None:
    seen: set[str] = set()
    for seed in range(12):
        session = _session(preset, 10, seed, language)
        state = session.state
        for command in play_random_game(state.ruleset, 10, seed, list(session.roles)).commands:
            state, events = engine.apply(state, command)
            session.state = state  # (the session's clock and pauses are not what is tested here)
            for event in events:
                if not announces_turn_only(event) or event.type != "speech":
                    continue
                line = render(event, session.name_of, state.ruleset, language)
                assert line is not None and event.audience.kind == "public"
                assert state.step.kind == "speech" and state.step.seat == event.data["seat"], line.text
                shown = status_line(session)
                said = next(words for cues, words in _KINDS[language] if any(c in line.text for c in cues))
                assert said.format(seat=event.data["seat"]) in shown, (line.text, shown)
                seen.add(event.data["purpose"])
    assert seen == rounds  # (the games met every kind of speech the preset hands over so)


async def test_only_hand_overs_are_left_out_of_the_channel() -> None:
    """What stays a line: a speech lost to fouls (seconds 0), a night victim's words, everything that
    is not a speech's start or «пас»."""
    public = engine.Audience("public")
    turn = engine.Event("speech", public, {"seat": 3, "purpose": "day", "seconds": 60}, "city_speech_turn")
    assert announces_turn_only(turn)
    assert announces_turn_only(engine.Event("passed", public, {"seat": 3}, "city_speech_pass"))
    for purpose, seconds in (("day", 0), ("night_words", 30)):
        kept = engine.Event("speech", public, {"seat": 3, "purpose": purpose, "seconds": seconds}, None)
        assert not announces_turn_only(kept)
    assert not announces_turn_only(engine.Event("nominated", public, {"seat": 3, "target": 4}, None))
