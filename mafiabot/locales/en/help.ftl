# /mafia help, /mafia rules (mafiabot/cogs/help.py, mafiabot/presets.py) and the moderators' game
# commands (mafiabot/cogs/moderation.py).

help-text =
    {"**"}How to start a game**
    1. Join the voice channel you will play in.
    2. Type `/mafia new` (Discord itself suggests the rules and variants): a lobby with buttons appears.
    3. The players join the same voice channel and press «Join».
    4. The one who opened the lobby (or the server's host) presses «Start the game»: the bot seats the players and deals the roles.
    Before the game, allow private messages from server members: a copy of your role comes there (your role is always shown by the «My role» button).

    {"**"}The Mafia host bot**
    The bot hosts the game in a voice channel: it deals the roles, announces the phases aloud, gives each player the floor in turn, counts the votes and mutes those who are not to speak now.

    {"**"}Commands**
    `/mafia new` — open a lobby.
    `/mafia rules` — the rules the bot can play.
    `/mafia check` — check private messages and the bot's permissions in your channels.
    `/mafia rating`, `/mafia top`, `/mafia history` — rating, the season's table, your games (a player's profile also in the member menu: «Apps → Mafia: profile»).
    `/mafia stop`, `pause`, `resume`, `extend`, `skip`, `kick` — for the game's host.
    `/mafia-admin` — the server's settings (host role, voice, timers, spectators, language, lobby timeout, your own rule variants as a file); shown to those who manage the server.
    `/mafia help` — this help.
rules-choose = Choose the rules to learn more about them:
rules-line = • **{ $title }** — { $players }
rules-preset = **{ $title }** (`{ $id }`), { $players }.
    { $summary }
players-exactly = { $count } players
players-span = { $low } to { $high } players
players-with-variant = { $players }; with the variant «{ $variant }»: { $other }
mod-no-game = There is no game here now.
mod-not-moderator = Only the one who started the game or a host with the host role may run it.
mod-stopping = The game is stopping…
mod-paused = Paused.
mod-resumed = We go on.
mod-extended = Added { $seconds } s.
mod-skipped = The step is over.
mod-kicked = Player #{ $seat } is removed from the table.
team-chat-title = Mafia · game { $game }
team-chat-open = 🌙 The mafia is awake: the chat is open until the mafia falls asleep.
team-chat-closed = The mafia falls asleep: the chat is closed.
team-chat-failed = ⚠️ The mafia's night chat did not open: the bot lacks permissions for private threads (`/mafia check`). The game goes on.
team-chat-no-threads = ⚠️ The mafia's night chat did not open: a voice channel's chat has no threads (open the game from a text channel). The game goes on.
table-restarting = ⏸ The host is restarting. The game is saved and goes on from where it was, with the same time left.
table-damaged-button = This button is damaged or out of date: nothing changed. Open the game's panel again.
summary-blood = Vampires against hunters, with day and night swapped: at night the town executes, in the day the hunters choose a victim. The vampires' masters, and a shapeshifter as a third side.
summary-city = Club rules with three teams: the town (sheriff, ranger, agent, doctor), the mafia (don, lawyer) and the maniac. Speeches in turn, execution by vote, fouls for breaking the club's rules.
summary-classic = Club rules: the citizens and the commissar against the mafia. In the day the town discusses and votes; at night the mafia chooses a victim and the commissar checks players. Extra characters and variants: the golden minute, bets, judges.
summary-fiim = Sports mafia by the FIIM rules: ten players, six civilians and the sheriff against two mafiosi and the don. The black team meets on night zero and then shoots one by one; one-minute speeches, lifting on a tie, fouls for the whole game, the best move.
summary-hobbyworld = The «Hobby World» card game: the citizens with a leader (detective, sheriff, judge…) against the mafia, a loner and, in a big game, the yakuza. In the day, a lynch trial; at night the roles wake in order.
summary-simple = Short rules: the citizens with the commissar, the harlot, the doctor and the maniac against the mafia with the don. Each night the mafia kills one citizen; in the day the town decides who leaves the game.
team-chat-reason = Mafia: the mafia's night chat
