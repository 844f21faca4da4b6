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
rating-side-yakuza = yakuza
rating-side-solo = loner
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
# `/mafia game`: a stored game's card and its protocol (mafiabot/cogs/_rating_texts.py).
game-status-lobby = lobby
game-status-running = in progress
game-status-over = ending
game-status-finished = finished
game-status-aborted = stopped
game-card-head = **Game #{ $game }** · { $rules } · { $when } · { $status } · winners: { $winners }
game-card-seat-hidden = #{ $seat } <@{ $user }>, fouls: { $fouls }
game-card-seat = #{ $seat } <@{ $user }> — { $role } ({ $side }), { $result }, points { $points }, fouls: { $fouls }
game-card-removed = , removed
game-card-left = , left the game
game-card-by-bot = the bot
game-card-foul = Foul #{ $number }: player #{ $seat }, day { $day }, { $reason } ({ $by })
game-card-foul-withdrawn = {" "}— withdrawn: { $reason }
game-protocol-head = Game #{ $game } · { $title }
game-protocol-seat = #{ $seat } { $name }{ $role }
game-protocol-running = (the game is on: the roles and night moves are shown once it is over)
game-protocol-not-applied = (the command { $command } did not apply)
game-protocol-private = [private]
# The moderators' season tools (mafiabot/cogs/ratings.py).
season-started = A new season has begun: { $season }. Earlier seasons: `/mafia top season:<number>`.
season-bonus-not-played = { $name } did not play in game #{ $game }.
season-bonus-cap = At most { $cap } points can be added to a player for one game.
season-bonus-given = { $name }: +{ $points } for game #{ $game } ({ $reason }).
season-export = The season's table:
# A rating's chart (mafiabot/ratings/chart.py).
chart-date = date (UTC)
chart-season-start = season start: { $value }
chart-after-game = after a game
chart-now = now
chart-no-games = no games this season yet
