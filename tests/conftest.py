"""Shared test setup. Keep this file small; fixtures of one area live in that area's conftest.py.

Importing `fakediscord` here, before any test module, lets it set SSL_CERT_FILE for its voice
gateway's certificate before anything imports aiohttp (which reads that variable once, at import).
"""

import fakediscord  # noqa: F401
