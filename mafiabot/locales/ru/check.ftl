# `/mafia check` (mafiabot/cogs/readiness.py): what the bot can do here, line by line.

check-dm-text = Проверка связи: личные сообщения работают. Во время игры сюда придёт ваша роль.
check-server-only = Эта команда работает только на сервере.
check-dm-closed = ❌ Не могу написать вам в личные сообщения: разрешите их в настройках сервера.
check-dm-open = ✅ Личные сообщения: отправил вам проверочное сообщение.
check-no-voice = ➖ Вы не в голосовом канале: зайдите в канал, где будет игра, и проверьте снова.
check-place-text = Текстовый канал { $channel }
check-place-voice = Голосовой канал { $channel }
check-place-threads = Ветки в { $channel }
check-place-missing = ❌ { $place }: боту не хватает прав: { $names }.
check-place-missing-for = ❌ { $place }: боту не хватает прав: { $names } (нужно для правил { $presets }).
check-place-ready = ✅ { $place }: все нужные права есть.
check-optional = ⚠️ { $note }.
check-helpers-advice-size = { $players ->
    [one] { $players } игрок
    [few] { $players } игрока
   *[many] { $players } игроков
} — { $needed ->
    [0] не нужно
   *[other] { $needed }
}
check-helpers-advice-better = { $size } (лучше { $advised })
check-helpers-advice = Discord даёт каждому боту { $bucket } изменений микрофона за 10 с на сервере; чтобы весь стол заглушался и включался меньше чем за секунду, ботов-помощников нужно: { $sizes }. Помощник — отдельное приложение Discord с правами «Просматривать канал», «Подключаться» и «Отключать участникам микрофон»: ссылку-приглашение печатает `mafiabot invite --helper`, токен — в `[voice] helper_tokens` у владельца бота.
check-helpers-none = ➖ Ботов-помощников нет: больше { $bucket } микрофонов сразу бот меняет с ожиданием. { $advice }
check-helpers-ready = 🤝 Боты-помощники в { $channel }: готовы { $ready } из { $total }.
check-helper-cannot-mute = нет права «Отключать участникам микрофон» в канале
check-helper-not-invited = не приглашён на сервер
check-helper-down = ⚠️ Помощник { $number }: { $why }; его работу делает основной бот.
check-warning = ⚠️ { $advice }
check-info = ℹ️ { $advice }
check-voice-encrypted = 🔒 Голос в { $channel } защищён сквозным шифрованием (DAVE). Код приватности: { $code } — он должен совпасть с кодом в вашем Discord.
check-voice-not-yet = ⚠️ Голос в { $channel } пока не защищён сквозным шифрованием: ключи ещё согласуются.
check-voice-no-dave = ❌ Бот не умеет сквозное шифрование голоса (DAVE): Discord не пустит его в голосовой канал.
check-voice-away = ➖ Бот сейчас не в голосовом канале; голос игры будет защищён сквозным шифрованием (DAVE).
