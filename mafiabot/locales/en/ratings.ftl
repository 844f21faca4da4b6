# Ratings (mafiabot/cogs/ratings.py, mafiabot/cogs/_rating_texts.py).

track-points = Season points
track-elo_red = Elo for the red team
track-elo_black = Elo for the black team
result-win = win
result-loss = loss
result-draw = draw
result-aborted = stopped
rating-side-town = town
rating-side-mafia = mafia
rating-side-maniac = maniac
rating-side-vampires = vampires
rating-side-hunters = hunters
history-running = #{ $game } { $date } · { $rules } · #{ $seat } · in progress
history-line = #{ $game } { $date } · { $rules } · #{ $seat } { $role } · { $result } · { $points }
profile-head = **{ $name }** — games: { $games }, wins: { $wins }
profile-tracks = Season points: { $points } · Elo for the red team: { $red } · Elo for the black team: { $black }
profile-fouls = Fouls this season: { $fouls }
profile-by-side = Wins by side: { $sides }
profile-by-role = Wins by role: { $roles }
profile-last-games = **Last games**
board-head = **{ $track } · { $season }** (page { $page } of { $pages })
board-empty = Nobody yet: play a rated game.
board-row = { $rank }. { $name } — { $value } ({ $games ->
    [one] { $games } game
   *[other] { $games } games
})
chart-line = Chart — { $track }: now { $now }, lowest { $low }, highest { $high }, changes: { $changes }
history-title = **Games: { $name }**
history-none = No games yet.
ratings-no-database = Ratings are unavailable: the bot runs without a database.
ratings-no-season = There is no season { $season }.
ratings-no-game = There is no game #{ $game } on this server.
ratings-not-started = Game #{ $game } has not started: it is a lobby, it has no record.
ratings-moderators = This is for hosts: the Manage Server permission or the host role.
ratings-season-default = season
season-name = Season { $number }
