"""The club's web pages, served by the bot's own process (aiohttp, which discord.py brings): a server's
leaderboard per season, a player's profile with his rating chart, a game's protocol with its record,
and a live table for streams. Off unless `[web] enabled`; the web cog starts it and hands out links.

What a page may show of a game is decided in mafiabot.disclosure, as for every other side door: a
running game shows its seats and public events only, whatever the address asks for.
"""
