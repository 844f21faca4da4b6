"""Hosting games: the session around the rules engine, the voice controller and the text renderer.

Cogs talk to :class:`~mafiabot.game.service.GameService` (``bot.games``, built in ``MafiaBot.setup_hook``):
every change to a game goes through its door, ``GameService.submit`` (lock, apply, store, then show).
The modules, from the top floor down (``[tool.importlinter]`` keeps the floors and forbids circles):

- ``restart``: resumes the stored games after a restart.
- ``service``: the running tables, the door, starting, stopping and ending a game; listens to sessions.
- ``actions`` (the click handlers by name), ``host_voice`` (TTS, joining voice), ``presence`` (voice
  events, leave timers), ``immunity`` (city's, between games), ``team_chat``,
  ``preset_controls`` (the presets' own panel and prompt items).
- ``table``: renders events into messages, DMs, the panel and prompts; drives the voice controller.
- ``components`` (buttons and selects, read from the session), ``records`` (every database call of a
  game) and ``reconciler`` (gives back what the voice ledger owes: on start, on connects, every round).
- ``session`` (state, log, lock, clock; no I/O), ``lobbies``, ``render``, ``speaker``, ``voice``,
  ``ledger`` (who the bot muted, in which game, and his own state before it).
- ``pacing`` (D-G8 night-step lengths per server), ``lobby``.
"""
