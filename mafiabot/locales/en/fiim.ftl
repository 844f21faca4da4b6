# «Спортивная мафия» (FIIM, docs/rules/FIIM.md): what the panel and the judge's commands say of fiim's own
# steps. One file of its own so that the other catalogues' moves do not meet it.

# D-FI8: a player with three fouls has no speech; his turn is a few seconds to nominate only.
step-nomination_turn = Player { $seat } has no speech (fouls): may only nominate
seat-nominates-only = 🔇 no speech, nominating only

# The tournament's seating schedule (/mafia tournament schedule | seating; FIIM.md F.2, [MR 4.2]).
tournament-schedule-no-tournament = No tournament is open: /mafia tournament start first.
tournament-schedule-no-mentions = Name the players by mention (@player), or name nobody: everyone in your voice channel then goes into the schedule.
tournament-schedule-no-voice = Name the players by mention (@player), or join a voice channel with them.
tournament-schedule-too-few = { $count ->
    [one] { $count } player was named
   *[other] { $count } players were named
}, but the table has { $seats } seats: a schedule needs at least { $seats }.
tournament-schedule-not-member = No member with id { $id } is on this server.
tournament-schedule-none = The tournament «{ $name }» has no seating schedule (/mafia tournament schedule).
tournament-schedule-head = **Tournament «{ $name }»: seating for { $games ->
    [one] { $games } game
   *[other] { $games } games
}** · { $seating ->
    [fixed] seats fixed by the schedule
   *[drawn] seats drawn at the table
} · draw { $seed }
tournament-schedule-game-fixed = Game { $number }: { $seats }
tournament-schedule-game-drawn = Game { $number }: { $players }

# /mafia judge verify: a protocol file checked (mafiabot/game/protocol.py; issue 19 item 4).
protocol-too-big = The file is too big for a protocol (over { $kb } KB).
protocol-refused = Protocol «{ $name }» refused: { $why }
protocol-fingerprint = the file was changed after it was signed (its SHA-256 does not match the protocol).
protocol-other_key = it is signed with another key ({ $signer }…), not this bot's (or the one you named).
protocol-not_protocol = this is not a protocol signed by the bot (it takes the mafia-protocol-N.json file of /mafia judge confirm).
protocol-signature = the signature does not match the protocol: it was forged or damaged.
protocol-replay = the signature holds, but the game's record does not replay to this protocol: its course or points are not what the rules decided.
protocol-valid = The protocol of game #{ $game } ({ $ruleset }) is genuine: { $own ->
    [yes] signed by this bot
   *[no] signed by the key you named
}, and the game's record replayed by the rules gives the same protocol. Result: { $outcome ->
    [town] the reds won
    [mafia] the blacks won
    [draw] a draw
   *[other] { $outcome }
}. SHA-256: `{ $sha }`

# D-FI15, [MR 6.7–6.8]: the speaker's colours «под протокол» on the panel (mafiabot/game/fiim_controls.py).
control-on-record = For the record: up to { $count ->
    [one] { $count } player
   *[other] { $count } players
} with a colour
control-on-record-black = #{ $seat } { $name } — black
control-on-record-red = #{ $seat } { $name } — red
answer-on-record = For the record: black — { $black }; red — { $red }.
