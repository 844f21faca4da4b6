"""Online engine first, offline engine when it fails: a game never waits on a dead network."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from audio.engines.base import Engine
from audio.pcm import Pcm

log = logging.getLogger(__name__)


class FallbackEngine(Engine):
    """Speaks with ``primary``; when it fails, speaks that phrase with ``secondary`` and, for ``cooldown``
    seconds, does not try ``primary`` for phrases it has not cached. Never raises: when both engines fail
    it returns empty PCM and the caller posts the text only.

    An outage is logged once (warning) when it starts and once (info) when the primary works again.
    """

    def __init__(
        self,
        primary: Engine,
        secondary: Engine,
        *,
        cooldown: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.primary = primary
        self.secondary = secondary
        self.cooldown = cooldown
        self._clock = clock
        self._retry_primary_at = 0.0
        self._outage = False
        self._secondary_broken = False
        self.fallbacks = 0
        self.name = primary.name
        self.voice = primary.voice

    @property
    def degraded(self) -> bool:
        """True while the primary engine is resting after a failure."""
        return self._clock() < self._retry_primary_at

    def cache_sources(self) -> list[str]:
        # A clip the offline engine made during an outage is reused only while the outage lasts.
        return [self.primary.source, self.secondary.source] if self.degraded else [self.primary.source]

    def synthesize(self, text: str) -> Pcm:
        if not self.degraded:
            try:
                pcm = self.primary.synthesize(text)
            except Exception as exc:  # any failure of the online engine must end in the offline one
                self._primary_failed(exc)
            else:
                if self._outage:
                    log.info(
                        "%s works again after %d fallback phrase(s)", self.primary.source, self.fallbacks
                    )
                    self._outage = False
                return pcm
        self.fallbacks += 1
        try:
            return self.secondary.synthesize(text)
        except Exception as exc:
            if not self._secondary_broken:
                log.error("fallback engine %s failed too, text only: %s", self.secondary.source, exc)
                self._secondary_broken = True
            return Pcm(b"", self.secondary.source)

    def _primary_failed(self, exc: Exception) -> None:
        self._retry_primary_at = self._clock() + self.cooldown
        if not self._outage:
            log.warning(
                "%s failed (%s); speaking with %s, retrying %s in %.0f s",
                self.primary.source, exc, self.secondary.source, self.primary.name, self.cooldown,
            )  # fmt: skip
            self._outage = True
