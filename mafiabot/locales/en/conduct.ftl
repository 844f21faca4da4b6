# The club rules' notices at the table (mafiabot/cogs/_conduct_record.py, _conduct_parts.py).

conduct-auto-foul = 🤖 An automatic foul for player #{ $seat } ({ $name }): { $reason }.
conduct-auto-foul-record = 🤖 An automatic foul for player #{ $seat } ({ $name }): { $reason }. Record #{ $record }; the host may withdraw it with the button below or `/mafia conduct withdraw`.
conduct-left = 🚪 Player #{ $seat } ({ $name }) left the voice channel and is removed from the table: minus five rating points.
conduct-forgiven-post = The penalty for leaving is lifted: player #{ $seat } is out without losing five points.
conduct-forgiven = The penalty for leaving is lifted.
conduct-over = The game is over: the penalty stays in the rating.
conduct-moderators = Only the one who started the game or a host with the host role may do this.
conduct-no-database = Without a database there is no rating.
reason-text_at_night = A message in the game's channel at night
reason-text_out_of_turn = A message in the game's channel out of turn
