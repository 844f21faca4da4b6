"""Hosting games: the session around the rules engine, the voice controller and the text renderer.

Cogs talk to :class:`~mafiabot.game.service.GameService` only; it owns every lobby and running table.
"""
