// The live table: draws each public table the server sends (server-sent events) and counts down to
// the step's deadline by the server's clock. Nothing here knows more than what the server sent.
"use strict";
(function () {
  const body = document.body;
  let offset = Number(body.dataset.now) * 1000 - Date.now(); // server clock minus ours
  let table = JSON.parse(body.dataset.snapshot);

  function seatCard(s) {
    const card = document.createElement("div");
    card.className = "seat" + (s.alive ? "" : " out") + (s.speaking ? " speaking" : "") + (s.nominee ? " nominee" : "");
    card.dataset.seat = String(s.seat);
    for (const [cls, text] of [["number", String(s.seat)], ["name", s.name], ["role", s.role], ["fouls", "●".repeat(s.fouls)]]) {
      const span = document.createElement("span");
      span.className = cls;
      span.textContent = text; // names are the members' own text: never markup
      card.appendChild(span);
    }
    return card;
  }

  function draw() {
    document.getElementById("phase").textContent = table.phase;
    document.getElementById("step").textContent = table.step;
    const seats = document.getElementById("seats");
    seats.replaceChildren(...table.seats.map(seatCard));
    document.getElementById("winners").textContent = table.winners.length ? document.body.dataset.won + " " + table.winners.join(", ") : "";
    tick();
  }

  function tick() {
    const clock = document.getElementById("clock");
    if (table.paused) {
      clock.textContent = document.body.dataset.paused;
      clock.className = "";
    } else if (table.deadline) {
      const left = Math.max(0, Math.ceil(table.deadline - (Date.now() + offset) / 1000));
      clock.textContent = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
      clock.className = left <= 10 ? "low" : "";
    } else {
      clock.textContent = "";
    }
  }

  const events = new EventSource(body.dataset.events);
  events.addEventListener("table", (message) => {
    const data = JSON.parse(message.data);
    offset = data.now * 1000 - Date.now();
    table = data;
    body.dataset.updates = String(Number(body.dataset.updates || 0) + 1);
    draw();
  });
  draw();
  setInterval(tick, 250);
})();
