"""A local stand-in for Discord that the real discord.py talks to over real sockets.

See README.md in this directory for how to write a bot test with it.

Importing the package makes the voice gateway's TLS certificate and points SSL_CERT_FILE at it, first
thing, because aiohttp reads SSL_CERT_FILE once, when it is imported (see tls.py).
"""

from .tls import trust_test_certificate

trust_test_certificate()

# ruff: noqa: E402 -- everything below may import aiohttp, so it must come after the line above.
from .audio import AudioStore, OpusFrames, dominant_frequency, encode_opus, tone_pcm
from .driver import Club, InteractionRecord
from .ratelimits import MEMBER_EDIT, RateLimits
from .rest import RestCall
from .server import FakeDiscord
from .world import Channel, ChannelType, Guild, Member, Message, Role, User, VoiceState

__all__ = [
    "MEMBER_EDIT",
    "AudioStore",
    "Channel",
    "ChannelType",
    "Club",
    "FakeDiscord",
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
