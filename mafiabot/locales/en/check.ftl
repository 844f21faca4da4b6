# `/mafia check` (mafiabot/cogs/readiness.py): what the bot can do here, line by line.

check-dm-text = Connection check: direct messages work. During a game your role will come here.
check-server-only = This command works only on a server.
check-dm-closed = ❌ I cannot send you direct messages: allow them in this server's privacy settings.
check-dm-open = ✅ Direct messages: I sent you a test message.
check-no-voice = ➖ You are not in a voice channel: join the channel the game will be in and check again.
check-place-text = Text channel { $channel }
check-place-voice = Voice channel { $channel }
check-place-threads = Threads in { $channel }
check-place-missing = ❌ { $place }: the bot lacks permissions: { $names }.
check-place-missing-for = ❌ { $place }: the bot lacks permissions: { $names } (needed for the rules { $presets }).
check-place-ready = ✅ { $place }: all the permissions needed are there.
check-optional = ⚠️ { $note }.
check-helpers-advice-size = { $players ->
    [one] { $players } player
   *[other] { $players } players
} — { $needed ->
    [0] none needed
   *[other] { $needed }
}
check-helpers-advice-better = { $size } (better { $advised })
check-helpers-advice = Discord lets each bot make { $bucket } microphone changes per 10 s on a server; for the whole table to be muted and unmuted in under a second, the helper bots needed are: { $sizes }. A helper is a separate Discord application with the permissions «View Channel», «Connect» and «Mute Members»: `mafiabot invite --helper` prints its invite link, and its token goes into `[voice] helper_tokens` of the bot's owner.
check-helpers-none = ➖ No helper bots: the bot changes more than { $bucket } microphones at once with waits. { $advice }
check-helpers-ready = 🤝 Helper bots in { $channel }: { $ready } of { $total } ready.
check-helper-cannot-mute = no «Mute Members» permission in the channel
check-helper-not-invited = not invited to the server
check-helper-down = ⚠️ Helper { $number }: { $why }; the main bot does its work.
check-warning = ⚠️ { $advice }
check-info = ℹ️ { $advice }
check-voice-encrypted = 🔒 The voice in { $channel } is end-to-end encrypted (DAVE). Privacy code: { $code } — it must match the code in your Discord.
check-voice-not-yet = ⚠️ The voice in { $channel } is not end-to-end encrypted yet: the keys are still being agreed.
check-voice-no-dave = ❌ The bot cannot encrypt voice end to end (DAVE): Discord will not let it into a voice channel.
check-voice-away = ➖ The bot is not in a voice channel now; the game's voice will be end-to-end encrypted (DAVE).
