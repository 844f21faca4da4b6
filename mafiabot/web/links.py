"""Signed links to a server's private pages: ``k=<expiry>.<signature>`` on every page of that server.

The signature is an HMAC-SHA256 of the server's id and the expiry under the bot's web secret, so a link
opens one server's pages until its time is up and nothing else: another server's id, a changed expiry
or a changed signature fails the check. No clock here: the caller passes the time.
"""

from __future__ import annotations

import base64
import hashlib
import hmac

KEY_PARAM = "k"


def derive_secret(token: str) -> bytes:
    """A web secret from the bot's token when none is configured (the token itself never leaves)."""
    return hmac.new(token.encode("utf-8"), b"mafiabot web links", hashlib.sha256).digest()


def _signature(secret: bytes, guild_id: int, expires: int) -> str:
    digest = hmac.new(secret, f"mafiabot-web:{guild_id}:{expires}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:18]).decode("ascii")  # 144 bits, 24 characters


def sign(secret: bytes, guild_id: int, expires: int) -> str:
    """The key of a link to ``guild_id``'s pages that works until ``expires`` (Unix seconds)."""
    return f"{expires}.{_signature(secret, guild_id, expires)}"


def signed_for(secret: bytes, guild_id: int, key: str) -> bool:
    """``key`` was signed for ``guild_id`` by this bot (expired or not)."""
    expiry, _, signature = key.partition(".")
    if not expiry.isdigit() or len(expiry) > 12 or not signature:
        return False
    return hmac.compare_digest(
        signature.encode("ascii", "replace"), _signature(secret, guild_id, int(expiry)).encode()
    )


def check(secret: bytes, guild_id: int, key: str, now: float) -> str | None:
    """Why ``key`` does not open ``guild_id``'s pages at ``now`` (``damaged``, ``foreign``, ``expired``:
    the pages say it in the server's language, ``web-link-*``), or None if it does."""
    expiry, _, signature = key.partition(".")
    if not expiry.isdigit() or len(expiry) > 12 or not signature:
        return "damaged"
    if not signed_for(secret, guild_id, key):
        return "foreign"
    if int(expiry) <= now:
        return "expired"
    return None
