# The voice side (mafiabot/game/reconciler.py, voice.py, speaker.py): a member left muted, the audit
# log's reasons, a voice channel the bot cannot join.

unmute-failed = ⚠️ Could not give the microphone back: { $who } — { $why }. The bot gives it back by itself as soon as it can (or unmute them by hand).
unmute-failed-no-permission = the bot lacks the «Mute Members» permission
unmute-failed-http = Discord answered with error { $status }
audit-mute = Mafia: the game's turn
audit-unmute = Mafia: giving the microphone back
voice-e2ee-required = Discord lets only end-to-end encrypted (DAVE) clients into voice, and the bot cannot encrypt: it needs the davey package
# A withdrawn foul's commands taken out of a running game (mafiabot/game/session.py).
withdraw-not-replayed = This foul cannot be withdrawn in a running game: the game's record does not replay.
withdraw-too-late = This foul cannot be withdrawn in a running game: the game has already moved on with its consequences.
