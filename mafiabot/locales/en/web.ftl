# `/mafia web` (mafiabot/cogs/web.py) and the club's web pages (mafiabot/web).

web-off = The club's web pages are off: the bot's owner turns them on in the [web] section of its settings (enabled = true).
web-no-database = The database is unavailable: there are no pages.
web-now-public = The server's pages are now open to anyone who has the address.
web-now-private = The server's pages are now closed: only through the links /mafia web gives.
web-board = Season table: { $link }
web-profile = Your profile: { $link }
web-games = Games: { $link }
web-table = Table of game #{ $game }: { $link }
web-obs = For OBS (#{ $game }): { $link }
web-links-until = The links work until <t:{ $until }:f>; do not pass them to anyone who should not see them.
