# The judge's and the tournament's answers (mafiabot/cogs/judge.py).

judge-colours-unclear = I do not understand «{ $part }»: write a seat and a colour, e.g. «3b 5r».
judge-colours-none = Name at least one player, e.g. «3b».
judge-no-database = The database is unavailable: the judge's records cannot be saved now.
judge-server-only = This command works only on a server.
judge-not-judge = Only a judge can do this: whoever started the game, a host with the host role, or the tournament's judge.
judge-no-finished-game = There is no finished game in this channel.
judge-no-such-game = There is no game #{ $game } on this server.
judge-not-finished = Game #{ $game } did not end by the rules: its result is not confirmed.
judge-recorded = Recorded on the protocol from player #{ $seat }.
judge-no-extra-points = These rules have no extra points (the sports rules have them).
judge-no-seat = There is no seat #{ $seat } at the table.
judge-points-final = The result of game #{ $game } is already confirmed: the points are not recorded, they are final.
judge-points-late = The result of game #{ $game } is already confirmed: the points are not recorded.
judge-points-given = Game #{ $game }: player #{ $seat } { $points } ({ $reason }); extra points in all: { $total }.
judge-confirmed-already = The result of game #{ $game } is already confirmed.
judge-confirmed = Judge { $judge } confirmed the result of game #{ $game }.
judge-confirmed-seat = #{ $seat } { $name }: { $total }
judge-confirmed-sha = The protocol's SHA-256: `{ $sha }`
judge-key = The protocols' key (Ed25519): `{ $public }`
    To check a file: `python -m mafiabot.game.protocol FILE --key KEY`.
tournament-table-title = **Tournament «{ $name }»**
tournament-table-head = #  player               games wins  total  (BM, extra, pen.)
tournament-table-empty = **Tournament «{ $name }»**: no confirmed games yet.
tournament-start-not-allowed = A tournament is opened by whoever manages the server, or by a host with the host role.
tournament-already-open = The tournament «{ $name }» is already on here: /mafia tournament end first.
tournament-other-open = No tournament opened: another one is already on here.
tournament-opened = Tournament «{ $name }» is open. Judge: { $judge }. Every sports game whose result the judge confirms (/mafia judge confirm) goes into its table.
tournament-scoring-fiim_mr19 = Points by the FIIM profile (mafiaratings no. 19): a win +1, the best move +0.4 / +0.25, −0.5 for four fouls or a removal, the judge's extra points.
tournament-scoring-fiim_mr19_ci = Points by the FIIM profile (mafiaratings no. 19) and the Ci compensation to reds shot on the first night in a game they lost.
tournament-no-scoring = There is no such scoring: { $scoring }.
tournament-never = There have been no tournaments on this server yet (/mafia tournament start).
tournament-none-open = No tournament is open.
tournament-closed = The tournament is closed.
