"""A local stand-in for Discord that the real discord.py talks to over real sockets.

See README.md in this directory for how to write a bot test with it.

Importing the package only makes the voice gateway's TLS certificate and points SSL_CERT_FILE at it,
because aiohttp reads SSL_CERT_FILE once, when it is imported (see tls.py). Everything else loads on
first use, so the root conftest can import this package early without importing discord or aiohttp.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from .tls import trust_test_certificate

trust_test_certificate()

if TYPE_CHECKING:
    from .audio import AudioStore, OpusFrames, dominant_frequency, encode_opus, tone_pcm
    from .driver import Club, InteractionRecord
    from .faults import Faults
    from .ratelimits import MEMBER_EDIT, MESSAGE_SEND, RateLimits
    from .rest import RestCall
    from .server import FakeDiscord
    from .world import Channel, ChannelType, Guild, Member, Message, Role, User, VoiceState

_HOME = {
    "AudioStore": "audio",
    "OpusFrames": "audio",
    "dominant_frequency": "audio",
    "encode_opus": "audio",
    "tone_pcm": "audio",
    "Club": "driver",
    "InteractionRecord": "driver",
    "Faults": "faults",
    "MEMBER_EDIT": "ratelimits",
    "MESSAGE_SEND": "ratelimits",
    "RateLimits": "ratelimits",
    "RestCall": "rest",
    "FakeDiscord": "server",
    "Channel": "world",
    "ChannelType": "world",
    "Guild": "world",
    "Member": "world",
    "Message": "world",
    "Role": "world",
    "User": "world",
    "VoiceState": "world",
}


def __getattr__(name: str) -> Any:
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


__all__ = [
    "MEMBER_EDIT",
    "MESSAGE_SEND",
    "AudioStore",
    "Channel",
    "ChannelType",
    "Club",
    "FakeDiscord",
    "Faults",
    "Guild",
    "InteractionRecord",
    "Member",
    "Message",
    "OpusFrames",
    "RateLimits",
    "RestCall",
    "Role",
    "User",
    "VoiceState",
    "dominant_frequency",
    "encode_opus",
    "tone_pcm",
]
