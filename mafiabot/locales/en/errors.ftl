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

# The engine's refusals by message id (engine/errors.py: IllegalCommand.key, args_), as errors.py says them.
illegal-nominate-day-only = Nominations are made only in the day.
illegal-nominate-out = Player { $seat } is out and may not nominate.
illegal-nominate-own-minute = You may nominate only in your own minute: player { $seat } is speaking now.
illegal-nominate-not-now = Nominations are not open now.
illegal-not-at-table = Player { $seat } is not at the table.
illegal-already-nominated = Player { $seat } is nominated already.
illegal-voted-on-today = Player { $seat } has been voted on today already.
illegal-nominated-already = You have nominated someone already.
illegal-no-speech-now = Nobody's speech is on now.
illegal-speaking-now = Player { $seat } is speaking now.
illegal-muted-today = You may not speak today.
illegal-no-vote-now = There is no vote now.
illegal-no-unvote = These rules do not let a vote be taken back.
illegal-did-not-vote = You did not vote against player { $seat }.
illegal-out-no-vote = Player { $seat } is out and does not vote.
illegal-no-vote-today = Player { $seat } may not vote today.
illegal-jailed-no-vote = Player { $seat } is in jail and does not vote.
illegal-swindled-vote = Player { $seat } votes as the swindler does today.
illegal-vote-other-candidate = The vote now is on player { $seat }, not on { $candidate }.
illegal-not-your-tiebreak = The deciding vote belongs to another player.
illegal-not-in-revote = Player { $seat } is not in the new vote.
illegal-game-over = The game is over already.
illegal-nothing-to-end = There is nothing to end now.
illegal-nobody-speaks = Nobody is speaking now.
illegal-no-question = No question has been asked.
illegal-question-not-yours = The question was not asked of you.
illegal-no-claim-now = You cannot make a claim now.
illegal-not-night-step = This is not the time for night actions.
illegal-out-no-act = Player { $seat } is out and may not act.
illegal-not-your-night-turn = It is not player { $seat }'s turn now.
illegal-blocked = You are blocked tonight.
illegal-targets-needed = Choose { $count ->
    [one] one player
   *[other] { $count } players
}.
illegal-not-acting = Player { $seat } does not act now.
illegal-team-must-choose = The team must choose: it cannot skip.
illegal-must-act = This action is required: it cannot be skipped.
illegal-not-team-turn = It is not a team's turn now.
illegal-not-in-team = Player { $seat } does not wake with this team.
illegal-bad-target = Player { $seat } cannot be chosen.
