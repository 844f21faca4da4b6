"""Cogs are thin: each resolves who acts, calls one service, and renders the result.

`DEFAULT_COGS` lists the extensions the bot loads by name, in order; a name missing from the list can
still be loaded with the `[bot] cogs` setting.
"""

DEFAULT_COGS: tuple[str, ...] = (
    "mafiabot.cogs.help",
    "mafiabot.cogs.readiness",
    "mafiabot.cogs.lobby",
    "mafiabot.cogs.roles",
    "mafiabot.cogs.voting",
    "mafiabot.cogs.variants",
    "mafiabot.cogs.moderation",
    "mafiabot.cogs.voice_settings",
    "mafiabot.cogs.conduct",
    "mafiabot.cogs.ratings",
)
