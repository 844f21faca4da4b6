"""mafiabot: the Discord adapter that hosts the party game Mafia («Мафия») in voice channels.

The rules live in :mod:`engine` (pure, no I/O); this package turns Discord events into game commands
and game events into messages, mutes and spoken announcements.
"""

__all__ = ["__version__"]

__version__ = "0.1.0"
