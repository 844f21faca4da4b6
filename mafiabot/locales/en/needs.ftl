# The bot's Discord permissions, as players and moderators read them (mafiabot/needs.py); the names
# are the ones Discord's own English client shows.

permission-view_channel = View Channel
permission-send_messages = Send Messages
permission-attach_files = Attach Files
permission-manage_messages = Manage Messages
permission-connect = Connect
permission-speak = Speak
permission-mute_members = Mute Members
permission-deafen_members = Deafen Members
permission-move_members = Move Members
permission-manage_channels = Manage Channels
permission-create_private_threads = Create Private Threads
permission-send_messages_in_threads = Send Messages in Threads
permission-manage_threads = Manage Threads
permission-manage_nicknames = Manage Nicknames
place-text = text channel { $channel }
place-voice = voice channel { $channel }
place-threads = threads in { $channel }
need-place-missing = { $place }: { $names }
need-optional-missing = without «{ $permission }» in { $channel }, { $without }
need-without-attach_files = the game's protocol is not posted as a file (it stays in /mafia game)
need-without-manage_messages = automatic fouls leave out-of-turn messages in the channel
need-without-manage_nicknames = the seat numbers do not appear in nicknames
need-stage = a game cannot be held in a stage channel: a stage's audience is silent until invited to speak, while at a Mafia table everyone speaks in turn. Choose an ordinary voice channel.
