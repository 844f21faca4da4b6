"""A voice worth hearing (issue 16): RHVoice where installed, one voice for a whole game, names the voice
cannot say left out."""

from __future__ import annotations

from pathlib import Path

import pytest

from audio import opus, pcm, phrases
from audio.announcer import Announcer
from audio.cache import ClipCache
from audio.engines import EngineError, EspeakEngine, FallbackEngine, RHVoiceEngine, offline_engine
from audio.engines.base import Engine
from audio.names import pronounceable


class Switch(Engine):
    """An online engine that works until it is switched off (and again when switched back on)."""

    name = "online"
    voice = "ru"

    def __init__(self) -> None:
        self.up = True

    def synthesize(self, text: str) -> pcm.Pcm:
        if not self.up:
            raise EngineError("network down")
        return pcm.Pcm(b"\x10\x00" * 2 * 4800, self.source)


class Offline(Engine):
    name = "offline"
    voice = "ru"

    def synthesize(self, text: str) -> pcm.Pcm:
        return pcm.Pcm(b"\x20\x00" * 2 * 4800, self.source)


class Clock:
    now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_game_that_fell_back_keeps_the_fallback_to_its_end(tmp_path: Path) -> None:
    online, clock = Switch(), Clock()
    bot = FallbackEngine(online, Offline(), cooldown=30, clock=clock)
    game = Announcer(bot.for_one_game(), ClipCache(tmp_path))
    assert game.prepare("city_night_falls").clip.source == "online:ru"  # type: ignore[union-attr]
    online.up = False
    assert game.prepare("city_mafia_wakes").clip.source == "offline:ru"  # type: ignore[union-attr]
    online.up = True
    clock.now += 3600  # long after the bot's cooldown: the bot tries the online voice again, the game not
    for phrase_id in ("city_speech_turn", "city_night_falls"):
        clip = game.prepare(phrase_id, {"seat": 3}).clip
        assert clip is not None and clip.source == "offline:ru", phrase_id  # not even a cached online clip
    later = Announcer(bot.for_one_game(), ClipCache(tmp_path))
    assert later.prepare("city_mafia_wakes").clip.source == "online:ru"  # type: ignore[union-attr]


def test_a_game_started_during_an_outage_keeps_the_offline_voice(tmp_path: Path) -> None:
    online, clock = Switch(), Clock()
    bot = FallbackEngine(online, Offline(), cooldown=30, clock=clock)
    online.up = False
    bot.synthesize("Город засыпает.")  # another game met the outage
    online.up = True
    game = Announcer(bot.for_one_game(), ClipCache(tmp_path))
    clock.now += 60
    assert game.prepare("city_night_falls").clip.source == "offline:ru"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("name", "language", "spoken"),
    [
        ("Анна", "ru", True),
        ("Анна-Мария Петрова", "ru", True),
        ("xX_Slayer_Xx 🔥", "ru", False),
        ("Slayer", "ru", False),
        ("Игрок 7", "ru", False),
        ("Slayer", "en", True),
        ("O'Brien", "en", True),
        ("Анна", "en", False),
        ("", "ru", False),
    ],
)
def test_which_names_are_pronounceable(name: str, language: str, spoken: bool) -> None:
    assert pronounceable(name, language) is spoken


def test_names_the_voice_cannot_say_are_left_out(tmp_path: Path) -> None:
    announcer = Announcer(Offline(), ClipCache(tmp_path))
    mangled = announcer.prepare("cl_player_killed", {"seat": 3, "name": "xX_Slayer_Xx 🔥"})
    assert mangled.text == "Сегодня ночью мафия коварно убила игрока номер три."
    assert mangled.mirror_text == "Сегодня ночью мафия коварно убила игрока номер 3, xX_Slayer_Xx 🔥."
    said = announcer.prepare("cl_player_killed", {"seat": 3, "name": "Анна"})
    assert said.text == "Сегодня ночью мафия коварно убила игрока номер три, Анна."
    rows = [{"seat": 1, "name": "🔥🔥", "role": "Мафия"}, {"seat": 2, "name": "Олег", "role": "Доктор"}]
    text = phrases.render("game_over_roles", {"roles_list": rows}, speakable=pronounceable)
    assert text == "Игра окончена. Роли игроков: один — Мафия; два — Олег — Доктор."


def test_the_offline_voice_is_rhvoice_where_installed(tmp_path: Path) -> None:
    """The set-up scripts install RHVoice where Debian's non-free packages can be had; elsewhere the
    offline voice is espeak-ng, and this checks that instead."""
    voice = offline_engine()
    if not RHVoiceEngine.available():
        assert isinstance(voice, EspeakEngine) and voice.source == "espeak-ng:ru-s175-a170"
        return
    assert isinstance(voice, RHVoiceEngine) and voice.source == "rhvoice:ru-aleksandr"
    cache = ClipCache(tmp_path)
    texts = [phrases.render("city_speech_turn", {"seat": 3}), phrases.render("city_night_falls")]
    clips = cache.render_many(voice, texts)
    for text, clip in zip(texts, clips, strict=True):
        assert clip is not None and clip.source == voice.source
        assert len(text) * 0.03 < clip.duration < len(text) * 0.15 + 0.5, (text, clip.duration)
        decoded = opus.decode(clip.packets)
        assert pcm.rms(decoded) > 500 and pcm.peak(decoded) > 5000
    english = RHVoiceEngine(language="en")
    assert english.source == "rhvoice:en-alan" and english.synthesize("The town falls asleep.").duration > 0.5


@pytest.mark.parametrize(
    ("phrase", "expected"),
    [
        ("cl_lynched_hidden", "Игрок номер три признан виновным и покидает игровое поле."),
        ("hw_judge_acquits", "Игрок номер три оправдан."),
        ("hw_vote_candidate", "Кто за то, чтобы предать суду Линча игрока номер три?"),
        ("bl_player_killed", "Этой ночью найдено тело: игрок номер три. Роль игрока: Вампир."),
    ],
)
def test_a_dropped_name_takes_its_commas_with_it(phrase: str, expected: str) -> None:
    """«Игрок номер три, признан виновным» would pause where the name was: the clause goes whole."""
    params = {"seat": 3, "name": "xX_Slayer_Xx 🔥", "role": "Вампир"}
    assert phrases.render(phrase, params, speakable=pronounceable) == expected
    kept = phrases.render(phrase, {**params, "name": "Анна"}, speakable=pronounceable)
    assert "номер три, Анна" in kept
