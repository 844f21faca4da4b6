"""Which display names the host may say aloud.

A name is spoken only when a voice of the server's language reads it as the players say it: letters of
that language's alphabet, in words joined by a space or a hyphen. «xX_Slayer_Xx 🔥» would come out as
spelled Latin letters and «огонь», so it is left out and the seat number alone is said; the text channel
still shows every name as written.
"""

from __future__ import annotations

import re

_WORDS = {
    "ru": re.compile(r"[А-ЯЁа-яё]+(?:[ -][А-ЯЁа-яё]+)*"),
    "en": re.compile(r"[A-Za-z]+(?:[ '-][A-Za-z]+)*"),
}
MAX_SPOKEN = 30  # a longer name is a sentence, not a name


def pronounceable(name: str, language: str = "ru") -> bool:
    words = _WORDS.get(language)
    text = name.strip()
    return words is not None and 0 < len(text) <= MAX_SPOKEN and words.fullmatch(text) is not None
