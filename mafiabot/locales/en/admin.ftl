# /mafia-admin: the server's settings (mafiabot/cogs/admin.py).

language-name-ru = Русский
language-name-en = English
admin-title = **Server settings**
admin-host-role = Host role: { $role }
admin-host-role-none = not set
admin-language = Language: { $name }
admin-voice-on = The host's voice: speaks, volume { $volume } %
admin-voice-off = The host's voice: silent (text only), volume { $volume } %
admin-spectators-muted = Spectators in the voice channel: muted
admin-spectators-open = Spectators in the voice channel: may speak
admin-timers = Timers: speech { $speech }, night turn { $night }
admin-timer-seconds = { $seconds } s
admin-timer-rules = as the rules say
admin-lobby-minutes = A lobby closes after { $minutes } min if the game has not started
admin-only-managers = Only those who manage the server may set up the bot.
admin-no-database = The database is unavailable: the settings cannot be saved.
admin-role-needed = Give a role (role) or remove it (clear: True).
admin-role-or-clear = Either a role or clear, not both.
admin-role-cleared = The host role is removed.
admin-role-set = The host role is set.
admin-next-game = The changes apply from the next game.
admin-next-lobby = The changes apply from the next lobby.
admin-timers-or-reset = Either new times or reset, not both.
admin-timers-needed = Give the speech time (speech), the night turn (night) or reset: True.
admin-no-such-language = No such language: there are { $languages }.
admin-language-saved = Language saved: new lobbies and games use it; games already running finish in their own.
