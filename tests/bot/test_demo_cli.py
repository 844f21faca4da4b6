"""`mafiabot demo` (mafiabot/demo.py) and `mafiabot invite`: a paced game in the terminal that reads like the
host's, its voice written to a file, and the invite link."""

from __future__ import annotations

import re
import wave
from pathlib import Path

import pytest

from audio.engines import offline_engine
from mafiabot import demo, needs
from mafiabot.__main__ import main


def test_the_demo_is_paced_and_names_no_internal_ids(capsys: pytest.CaptureFixture[str]) -> None:
    pauses: list[float] = []
    told = demo.play("city", 10, 7, speed=2.0, sleep=pauses.append)
    out = capsys.readouterr().out
    assert out.startswith("Демо-игра «Городская мафия»: 10 игроков, сид 7.")
    assert len(pauses) == len(told) > 50 and all(0.2 < p < 5 for p in pauses)
    # No engine id, Python value or English side name reaches the reader (issue 16's examples).
    for raw in ("agent_meets", "True", "False", "town", "mafia_meets", "city_sheriff", "Победа: "):
        assert raw not in out, raw
    assert re.search(r"\[лично №\d+ \w+\] Ваша роль: ", out)


@pytest.mark.parametrize("preset", ["classic", "city", "hobbyworld", "blood", "simple", "fiim"])
def test_the_demo_in_english_has_no_russian_and_no_ids(
    preset: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """`mafiabot demo --language en`: the host's lines, the roles, the rules' title, the winners and the
    players. names in English; nothing Russian, no engine id («agent_meets», «False»)."""
    told = demo.play(preset, 10, 7, speed=0, language="en")
    out = capsys.readouterr().out
    assert out.startswith("A demo game of «"), out[:100]
    assert re.findall("[А-Яа-яЁё]+", out) == []
    for raw in ("_meets", "True", "False", "None"):
        assert raw not in out, raw
    assert re.search(r"\[to #\d+ [A-Z][a-z]+\] Your role: ", out)
    assert len(told) > 30


def test_the_demo_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--speed", "0", "--ruleset", "simple", "--players", "8", "--seed", "3"]) == 0
    assert "Демо-игра «Мафия с путаной и маньяком»: 8 игроков, сид 3." in capsys.readouterr().out
    assert main(["demo", "--speed", "0", "--language", "en", "--ruleset", "city", "--seed", "3"]) == 0
    assert capsys.readouterr().out.startswith("A demo game of «City Mafia»: 10 players, seed 3.")
    assert main(["demo", "--speed", "0", "--players", "3"]) == 2  # a table the rules do not deal for
    assert "mafiabot demo:" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["demo", "--ruleset", "nope"])


def test_the_voice_file_holds_the_host_s_lines(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MAFIABOT_AUDIO_CACHE", str(tmp_path / "cache"))
    told = demo.play("classic", 10, 7, speed=0, out=lambda _: None)
    spoken = [(ev, line) for ev, line in told if ev.phrase and ev.audience.kind == "public"][:4]
    path = tmp_path / "host.wav"
    seconds = demo.write_voice(path, spoken, {})
    with wave.open(str(path)) as wav:
        assert (wav.getframerate(), wav.getnchannels(), wav.getsampwidth()) == (48_000, 2, 2)
        assert wav.getnframes() / 48_000 == pytest.approx(seconds)
    assert seconds > 4 * 0.5 + 2  # four lines of speech and the gaps between them
    assert any(p.is_dir() for p in (tmp_path / "cache").iterdir())  # rendered through the clip cache
    assert offline_engine().speaks


def test_invite_prints_the_link_with_exactly_the_needed_permissions(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["invite", "123456789012345678"]) == 0
    assert capsys.readouterr().out.strip() == needs.invite_url("123456789012345678")
    assert main(["invite", "not-an-id"]) == 2
