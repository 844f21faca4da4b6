"""Cogs are thin: each resolves who acts, calls the game service (`bot.games`), and answers.

The bot loads them by name (`mafiabot.bot.DEFAULT_COGS`).
"""
