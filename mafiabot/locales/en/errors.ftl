# Answers to what a player or a moderator may cause (mafiabot/errors.py and the cogs' refusals).

error-generic = Something went wrong. The error is logged; please try again.
error-stale = This step of the game is over: the button no longer works.
error-not-allowed-here = This bot is not set up to work on this server.
error-restarting = The host is restarting: in a minute the game goes on from where it was; try again then.
error-not-stored = Your move could not be stored (the database does not answer): the game is as it was; try again.
error-cooldown = Too often. Try again in { $seconds } s.
error-bot-permissions = The bot lacks permissions: { $names }.
error-your-permissions = You lack permissions: { $names }.
error-server-only = This command works only on a server.
error-not-here = This command cannot be used here.
error-game-over = This game is over: the button no longer works.
error-not-playing = You are not playing in this game.
# The engine's refusals on a server whose language the rulebook's own sentence is not in: by its kind.
illegal-kind = The rules do not allow that now.
illegal-kind-WrongPhase = This is not the time for that.
illegal-kind-NotYourTurn = It is not your turn.
illegal-kind-DeadPlayer = You are out of the game.
illegal-kind-IllegalTarget = You cannot choose this player.
illegal-kind-AlreadyActed = You have done that already.
illegal-kind-GameOver = The game is over.
