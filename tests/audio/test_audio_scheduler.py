"""AnnouncementQueue: in order, never overlapping, durations reported; Announcer: text, mirror and clip."""

from __future__ import annotations

import asyncio
import itertools
import logging
from pathlib import Path

import pytest

from audio.announcer import Announcement, Announcer
from audio.cache import Clip, ClipCache
from audio.engines import EspeakEngine, NoneEngine
from audio.scheduler import AnnouncementQueue


def announcement(phrase_id: str, seconds: float | None) -> Announcement:
    clip = (
        None
        if seconds is None
        else Clip((b"\xfc",) * round(seconds / 0.02), round(seconds * 48000), "x:y", "")
    )
    return Announcement(phrase_id, phrase_id, phrase_id, clip)


class FakePlayer:
    """Plays a clip in 1/20 of its real time and records what overlapped."""

    def __init__(self) -> None:
        self.playing = 0
        self.max_playing = 0
        self.log: list[str] = []

    async def play(self, item: Announcement) -> None:
        self.playing += 1
        self.max_playing = max(self.max_playing, self.playing)
        self.log.append(f"start {item.phrase_id}")
        await asyncio.sleep(item.duration / 20)
        self.log.append(f"end {item.phrase_id}")
        self.playing -= 1


async def test_announcements_play_in_order_without_overlap() -> None:
    player = FakePlayer()
    queue = AnnouncementQueue(player.play)
    futures = [queue.put(announcement(name, secs)) for name, secs in [("a", 1.0), ("b", 0.4), ("c", 0.6)]]
    await queue.drain()
    assert player.log == ["start a", "end a", "start b", "end b", "start c", "end c"]
    assert player.max_playing == 1
    played = [f.result() for f in futures]
    assert [p.phrase_id for p in played] == ["a", "b", "c"]
    assert [p.clip_duration for p in played] == [1.0, 0.4, 0.6]
    for before, after in itertools.pairwise(played):
        assert after.started >= before.ended
    assert played[0].ended - played[0].started >= 1.0 / 20 * 0.9
    assert queue.history == played


async def test_concurrent_callers_each_wait_for_their_own_line() -> None:
    player = FakePlayer()
    queue = AnnouncementQueue(player.play)

    async def phase_change(name: str) -> str:
        played = await queue.say(announcement(name, 0.2))
        assert f"end {name}" in player.log
        return played.phrase_id

    names = await asyncio.gather(*(phase_change(n) for n in ("night", "mafia", "sheriff")))
    assert names == ["night", "mafia", "sheriff"]
    assert player.max_playing == 1 and queue.pending == 0


async def test_text_is_mirrored_for_every_line_and_silent_lines_are_not_played() -> None:
    player = FakePlayer()
    mirrored: list[str] = []

    async def mirror(item: Announcement) -> None:
        mirrored.append(item.mirror_text)

    queue = AnnouncementQueue(player.play, on_text=mirror)
    await queue.say(announcement("private", None))
    await queue.say(announcement("public", 0.2))
    assert mirrored == ["private", "public"]
    assert player.log == ["start public", "end public"]
    assert queue.history[0].clip_duration == 0.0


async def test_a_failing_player_does_not_stop_the_queue(caplog: pytest.LogCaptureFixture) -> None:
    calls: list[str] = []

    async def flaky(item: Announcement) -> None:
        calls.append(item.phrase_id)
        if item.phrase_id == "bad":
            raise ConnectionError("voice connection lost")

    queue = AnnouncementQueue(flaky)
    with caplog.at_level(logging.ERROR, logger="audio"):
        queue.put(announcement("bad", 0.1))
        last = await queue.say(announcement("good", 0.1))
    assert calls == ["bad", "good"] and last.phrase_id == "good"
    assert "playing bad failed" in caplog.text


async def test_close_drops_what_is_still_queued() -> None:
    started = asyncio.Event()

    async def slow(item: Announcement) -> None:
        started.set()
        await asyncio.sleep(10)

    queue = AnnouncementQueue(slow)
    first = queue.put(announcement("first", 1.0))
    second = queue.put(announcement("second", 1.0))
    await started.wait()
    await queue.close()
    assert second.cancelled() and first.cancelled()


async def test_announcer_prepares_text_mirror_and_clip(tmp_path: Path) -> None:
    announcer = Announcer(EspeakEngine(), ClipCache(tmp_path))
    spoken = await announcer.prepare_async("hw_vote_result", {"seat": 3, "count": 5})
    assert spoken.text == "За игрока номер три подано голосов: пять."
    assert spoken.mirror_text == "За игрока номер 3 подано голосов: 5."
    assert spoken.clip is not None and 1.0 < spoken.duration < 6.0
    private = announcer.prepare("priv_role_card", {"seat": 2, "role": "Доктор"})
    assert private.clip is None and private.text == "Роль игрока номер два: Доктор."
    text_only = Announcer(NoneEngine(), ClipCache(tmp_path)).prepare("time_up")
    assert text_only.clip is None and text_only.duration == 0.0 and text_only.text == "Время вышло."
