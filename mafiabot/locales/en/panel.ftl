# The game panel (mafiabot/game/panel.py) and its controls (components.py).

panel-over = The game is over.
panel-title = **{ $phase }** — { $step }{ $timer }
panel-until = { " · " }ends { $when }
panel-paused = { " · " }paused
panel-ten-left = { " · " }⏳ ten seconds left
panel-alive = At the table: { $seats }
phase-numbered = { $name } { $number }
phase-intro = { $name } (introduction)

step-speech = Player { $seat } speaks
# A speech handed over by a phrase of its own (its id after «step-speech-»: panel.py), in that phrase's
# words: the hand-over is not posted as a line, the panel says it (issue 18).
step-speech-cl_last_word = The last word of player { $seat }
step-speech-fiim_last_word = The last word of player { $seat }
step-speech-city_farewell = The farewell speech of player { $seat }
step-speech-city_defence_turn = The defence of player { $seat }
step-discussion = Open discussion
step-nominations = Nominations
step-vote = Vote: player { $seat }
step-tiebreak = Player { $seat } casts the deciding vote
step-question = A question for the maniac
step-night = { $phase }
step-meet = { $phase }: the team meets
step-lift = Vote: do they all leave the table together?
step-acquittal = Player { $seat } is condemned
step-court = The judges' court: player { $seat }
step-court_choice = The court chooses among the pardoned
step-golden = The golden minute: candidates may speak
step-bets = The bet: who is the mafia?
step-two_cards = Mafia: a face-down card or the opponent?

seat-out = out
seat-speaks = 🎙️ speaking
seat-on-ballot = ✋ on the ballot
seat-nominated = nominated
seat-fouls = { $count ->
    [one] { $count } foul
   *[other] { $count } fouls
}

control-role = My role
control-turn = My turn
control-pass = Pass
control-nominate = Nominate a player
control-vote = I vote: #{ $seat } { $name }
control-unvote = Take my vote back
control-yes = Yes
control-no = No
control-skip = Skip
control-target = Choose a player
control-team-target = The team's target
control-tiebreak = Who leaves the table?
seat-option = #{ $seat } { $name }

prompt-question = Do you play for the town? Your answer will be announced to everyone.
prompt-tiebreak = Yours is the deciding vote.
prompt-your-turn = { $role }, it is your turn. Choose a player.
countdown-ten = ⏳ Ten seconds left.

# The presets' own controls (mafiabot/game/preset_controls.py).
control-nominees = Who is nominated?
control-permit = I allow to speak…
control-forbid = I forbid to speak…
control-lift = For { $seats } leaving the table
control-golden = Take the golden minute
control-bet = The bet: the mafia is player…
control-card-hidden = Mafia: a face-down card
control-card-opponent = Mafia: the opponent
control-act-kill = Kill
control-act-check = Check
control-act-other = Choose
control-act-one = { $verb }: one player
control-act-two = { $verb }: two players
control-mafia-target = The mafia's target
control-best-move = Best move: three players
control-acquit = Acquit #{ $seat }
control-execute = Execute
control-pardon = Pardon
control-withdraw = Withdraw my nomination
control-suggest = Suggest to the don…
prompt-suggest = { $role }, the don (#{ $leader }) names the mafia's target. You may suggest a player to him: your team sees the suggestion, the don decides.
control-court-pick = Whom to execute?
seat-number = #{ $seat }
panel-immunity = Immunity: { $seats }
prompt-choose-act = { $role }, it is your turn. Choose one action: { $acts }
prompt-act-or = { " " }or{ " " }
prompt-act-name = “{ $act }”
prompt-choose-two = { $role }, it is your turn. Choose two players.
prompt-designate = Don, your pick is the mafia's target: choose a player.
prompt-best-move = Best move: name three players you believe are black.
prompt-acquittal = Player { $seat } is condemned. You may acquit him (once a day).
prompt-court = The court decides the fate of player { $seat }.
prompt-court-choice = The court must execute one of those pardoned today. Your choice:

# The table's notes in the game's channel (mafiabot/game/table.py).
table-no-mute-permission = ⚠️ The bot lacks the «Mute Members» permission in the voice channel.
table-record = The game's record:
table-record-not-attached = ⚠️ The game's record is not attached: the bot lacks the «Attach Files» permission in this channel.
table-nick-reason = Mafia: seat number
table-nick-back-reason = Mafia: the game is over
table-nick-not-numbered = ℹ️ No seat number added to the nickname of { $seats } (the server's owner, or a role above the bot's).
table-voice-failed = 🔇 Could not join the voice channel ({ $why }): the host will write in text.
table-seating-title = **Seating**
table-seating-row = #{ $seat } — <@{ $user }>
table-seating-dealt = The roles are dealt: press «My role»; a copy is in your private messages.
table-seating-scheduled = Seats follow the schedule of the tournament «{ $name }», game { $game }.
table-restarted = The bot has restarted: the game goes on from where it was.
table-ended-while-down = The game ended while the bot was down: the results are below.
rating-game-title = **Rating for the game**
rating-game-row = #{ $seat } { $name }: { $points }
rating-game-row-elo = #{ $seat } { $name }: { $points }, Elo { $elo }
