"use strict";
// The page: logs in (Discord's handshake, or the development login), keeps
// one websocket to the bot, draws each frame, and sends clicks. The server
// decides everything; the page only shows what it was sent.
(() => {
  const R = window.ToepRender;
  const $ = (id) => document.getElementById(id);
  // Inside Discord every request goes through the Activity proxy's prefix.
  const API = window.ToepDiscord.inDiscord || location.pathname.startsWith("/.proxy")
    ? "/.proxy" : location.pathname.replace(/\/[^/]*$/, "");
  const state = { words: {}, lang: "en", session: null, channel: null, frame: null,
    socket: null, retries: 0, timer: null, denied: false, user: null, toastTimer: null, pass: null };

  const w = (key, params = {}) => R.fill(state.words[key] || key, params);

  async function loadWords(lang) {
    const res = await fetch(`${API}/api/texts?lang=${encodeURIComponent(lang)}`);
    const body = await res.json();
    state.lang = body.lang;
    state.words = body.texts;
    document.documentElement.lang = body.lang;
    $("title").textContent = w("page.title");
    $("language").textContent = w("page.language");
    $("hand-title").textContent = w("page.hand");
    $("happened-title").textContent = w("page.happened");
  }

  // Discord's timestamp tags (<t:1700000000:f>), which the bot's texts share
  // with Discord, shown in the reader's own time zone as Discord shows them:
  // the relative style (:R) as "in 7 days", the others as a date and time.
  function plain(text) {
    return String(text || "").replace(/<t:(\d+)(?::([tTdDfFR]))?>/g, (_, seconds, style) => {
      const when = new Date(Number(seconds) * 1000);
      return style === "R" ? fromNow(when) : when.toLocaleString(state.lang);
    });
  }

  const UNITS = [["year", 31536000], ["month", 2592000], ["day", 86400], ["hour", 3600],
    ["minute", 60], ["second", 1]];

  function fromNow(when) {
    const seconds = (when.getTime() - Date.now()) / 1000;
    const [unit, size] = UNITS.find(([, length]) => Math.abs(seconds) >= length) || UNITS[5];
    return new Intl.RelativeTimeFormat(state.lang, { numeric: "auto" })
      .format(Math.round(seconds / size), unit);
  }

  function say(text) { $("message").textContent = plain(text); }

  function toast(text) {
    const box = $("toast");
    box.textContent = plain(text);
    box.hidden = false;
    clearTimeout(state.toastTimer);
    // Long enough to read: a ban's notice is a few sentences.
    const showFor = Math.max(5000, box.textContent.length * 60);
    state.toastTimer = setTimeout(() => { box.hidden = true; }, showFor);
  }

  // --- logging in --------------------------------------------------------------------

  async function start() {
    const params = new URLSearchParams(location.search);
    await loadWords(params.get("lang") || navigator.language || "en");
    const config = await (await fetch(`${API}/api/config`)).json();
    if (window.ToepDiscord.inDiscord) {
      say(w("page.connecting"));
      try {
        const found = await window.ToepDiscord.login(config.client_id, API);
        state.session = found.session;
        state.channel = found.channel;
      } catch (err) {
        say(w("page.login.failed"));
        return;
      }
      connect();
      return;
    }
    state.session = sessionStorage.getItem("toep.session");
    state.channel = params.get("channel") || sessionStorage.getItem("toep.channel");
    if (state.session && state.channel) {
      connect();
    } else if (config.dev_login) {
      showLogin(params);
    } else {
      say(w("page.login.off"));
    }
  }

  function showLogin(params) {
    $("login").hidden = false;
    $("login-title").textContent = w("page.login.title");
    $("login-help").textContent = w("page.login.help");
    $("login-user-label").textContent = w("page.login.user");
    $("login-channel-label").textContent = w("page.login.channel");
    $("login-go").textContent = w("page.login.go");
    $("login-channel").value = params.get("channel") || "";
    $("login-form").onsubmit = async (event) => {
      event.preventDefault();
      const res = await fetch(`${API}/api/dev-login`, { method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ user: $("login-user").value.trim(), locale: state.lang }) });
      if (!res.ok) { say(w("page.login.failed")); return; }
      state.session = (await res.json()).session;
      state.channel = $("login-channel").value.trim();
      sessionStorage.setItem("toep.session", state.session);
      sessionStorage.setItem("toep.channel", state.channel);
      $("login").hidden = true;
      connect();
    };
  }

  // --- the websocket -----------------------------------------------------------------

  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}${API}/ws`);
    state.socket = socket;
    state.denied = false;
    if (!state.frame) say(w("page.connecting"));
    socket.onopen = () => {
      socket.send(JSON.stringify({ type: "hello", session: state.session,
        channel: state.channel, lang: state.lang, pass: state.pass }));
    };
    socket.onmessage = (event) => receive(JSON.parse(event.data));
    socket.onclose = (event) => closed(socket, event.code);
  }

  function receive(message) {
    if (message.type === "welcome") {
      state.user = message.user; // who this page is, as the server knows it
      state.pass = message.pass;
    } else if (message.type === "pass") {
      state.pass = message.pass; // shown when reconnecting: no need to ask Discord again
    } else if (message.type === "table") {
      state.retries = 0;
      state.frame = message;
      say("");
      draw();
    } else if (message.type === "refused") {
      toast(message.text);
    } else if (message.type === "denied") {
      state.denied = true;
      say(message.text);
    }
  }

  function closed(socket, code) {
    if (socket !== state.socket) return; // replaced (a language change)
    if (code === 4401) {
      sessionStorage.removeItem("toep.session");
      if (!state.denied) say(w("page.login.failed"));
      return;
    }
    if (code === 4403 || code === 4400) return; // the reason is shown
    if (code === 4404) { offerLookAgain(); return; }
    // The bot restarted or the network hiccuped: try again soon, a little
    // later each time (at most every two seconds).
    say(w("page.reconnecting"));
    state.retries += 1;
    setTimeout(connect, Math.min(2000, 150 * state.retries));
  }

  function offerLookAgain() {
    const button = R.el("button", "strong", w("page.look_again"));
    button.onclick = () => { button.remove(); connect(); };
    $("message").append(" ", button);
  }

  function send(verb, card = null) {
    if (!state.socket || state.socket.readyState !== WebSocket.OPEN || !state.frame) return;
    state.socket.send(JSON.stringify({ type: "act", verb, card, stamp: state.frame.stamp }));
  }

  $("language").onclick = async () => {
    await loadWords(state.lang === "nl" ? "en" : "nl");
    if (state.socket) {
      const old = state.socket;
      connect(); // the happenings come in the new language
      old.close();
    }
  };

  // --- drawing -----------------------------------------------------------------------

  function draw() {
    const frame = state.frame;
    $("board").hidden = false;
    $("status").textContent = statusLine(frame);
    drawChairs(frame);
    drawCentre(frame);
    drawNotes(frame);
    drawAnswers(frame);
    drawHand(frame);
    drawLobby(frame);
    const list = $("happened");
    list.replaceChildren(...frame.recent.map((line) => R.el("li", "", plain(line))));
    $("happened-box").hidden = frame.recent.length === 0;
  }

  function statusLine(frame) {
    const game = frame.game;
    if (frame.status !== "playing" || !game) return w(`page.status.${frame.status}`);
    const kind = game.kind === "normal" ? "" : ` · ${w(`kind.${game.kind}`)}`;
    return `${w("page.round", { number: game.round })}${kind} · ${w("page.limit", { limit: game.limit })}`;
  }

  function names(frame) {
    return frame.game ? frame.game.players : frame.seats.map((s) => s.name);
  }

  function drawChairs(frame) {
    const felt = $("felt");
    felt.querySelectorAll(".chair").forEach((chair) => chair.remove());
    const game = frame.game;
    const who = names(frame);
    const mine = frame.me ? frame.me.seat : 0;
    const limit = game ? game.limit : frame.rules.limit;
    frame.seats.forEach((seat, index) => {
      const chair = R.el("div", "chair");
      const spot = R.place(index, frame.seats.length, mine);
      chair.style.left = `${spot.left}%`;
      chair.style.top = `${spot.top}%`;
      const you = frame.me && frame.me.seat === index;
      if (you) chair.classList.add("you");
      const label = you ? `${who[index]} (${w("page.you")})` : who[index];
      chair.append(R.el("div", "name", seat.level ? `${label} · ${w("page.computer")}` : label));
      const badges = [];
      if (game) {
        if (game.waiting.includes(index) && !frame.passed.includes(index)) chair.classList.add("turn");
        if (game.out[index]) { badges.push(w(game.forfeited[index] ? "page.forfeited" : "page.out")); chair.classList.add("gone"); }
        if (game.folded[index]) badges.push(w("page.folded"));
        if (game.sat_out[index]) badges.push(w("page.sat_out"));
        if (game.dead_men.includes(index)) badges.push(w("page.dead_man"));
        if (frame.passed.includes(index)) badges.push(w("page.passed"));
        if (!game.out[index] && game.marks[index] === limit - 1) badges.push(w("page.edge"));
        chair.append(R.el("div", "badges", badges.join(" · ")));
        chair.append(R.slate(game.marks[index], limit, state.words));
      }
      felt.append(chair);
    });
  }

  function drawCentre(frame) {
    const game = frame.game;
    $("stake").textContent = game && frame.status === "playing" ? w("page.stake", { stake: game.stake }) : "";
    const trick = $("trick");
    trick.replaceChildren();
    if (game) {
      for (const [seat, code] of game.table) {
        const box = R.el("div", "played");
        box.append(R.card(code, state.words), R.el("div", "", names(frame)[seat]));
        trick.append(box);
      }
    }
    clearInterval(state.timer);
    const tick = () => { $("clock").textContent = clockLine(frame); };
    tick();
    state.timer = setInterval(tick, 250);
  }

  function clockLine(frame) {
    const clock = frame.clock;
    if (!clock) return "";
    if (clock.paused) return w("page.clock_paused");
    if (clock.deadline === null) return "";
    const seconds = Math.ceil(clock.deadline - Date.now() / 1000);
    return seconds > 0 ? w("page.seconds", { seconds }) : ""; // the bot decides what comes next
  }

  function drawNotes(frame) {
    const notes = $("notes");
    notes.replaceChildren();
    const game = frame.game;
    const who = names(frame);
    const line = (text) => notes.append(R.el("div", "", text));
    if (frame.status === "finished" && game) {
      if (game.winner !== null) line(w("page.winner", { name: who[game.winner] }));
      line(w("page.standings"));
      const order = who.map((name, seat) => ({ name, seat })).sort(
        (a, b) => game.marks[a.seat] - game.marks[b.seat]);
      for (const { name, seat } of order) line(`${name}: ${R.marksText(game.marks[seat], state.words)}`);
      return;
    }
    if (frame.status !== "playing" || !game) return;
    for (const [seat, cards] of game.open_hands) cardLine(w("page.open_hand", { name: who[seat] }), cards);
    if (frame.me) {
      for (const shown of frame.me.laid_down) cardLine(w("page.laid_down", { name: who[shown.caller] }), shown.cards);
    }
    const waiting = game.waiting.filter((seat) => !frame.passed.includes(seat));
    if (frame.me && waiting.includes(frame.me.seat)) line(w("page.your_turn"));
    else if (waiting.length) line(w("page.waiting_for", { names: waiting.map((s) => who[s]).join(", ") }));
    if (!frame.me) line(w("page.watching"));

    function cardLine(text, cards) {
      const row = R.el("div", "", `${text} `);
      const box = R.el("span", "cards");
      box.append(...cards.map((code) => R.card(code, state.words)));
      row.append(box);
      notes.append(row);
    }
  }

  function answerLabel(verb, stake) {
    const marks = (count) => R.marksText(count, state.words);
    const params = { toep: { stake: stake + 1 }, call: { stake }, fold: { marks: marks(stake - 1) },
      play_in: { stake }, sit_out: { marks: marks(1) } }[verb] || {};
    return w(`btn.${verb}`, params);
  }

  function drawAnswers(frame) {
    const box = $("answers");
    box.replaceChildren();
    if (!frame.me || frame.status !== "playing" || !frame.game) return;
    for (const verb of frame.me.answers) {
      const button = R.el("button", verb === "toep" || verb === "vuile_was" ? "strong" : "",
        answerLabel(verb, frame.game.stake));
      button.dataset.verb = verb;
      button.onclick = () => send(verb);
      box.append(button);
    }
  }

  function drawHand(frame) {
    const hand = $("hand");
    hand.replaceChildren();
    $("hand-box").hidden = !frame.me || frame.status !== "playing";
    if (!frame.me) return;
    for (const code of frame.me.hand) {
      const button = R.card(code, state.words, "button");
      button.disabled = !frame.me.playable.includes(code);
      button.onclick = () => send("play", code);
      hand.append(button);
    }
  }

  function drawLobby(frame) {
    const box = $("lobby");
    box.replaceChildren();
    const seated = frame.seats.some((seat) => seat.user === state.user);
    const add = (verb, label, strong) => {
      const button = R.el("button", strong ? "strong" : "", label);
      button.dataset.verb = verb;
      button.onclick = () => send(verb);
      box.append(button);
    };
    if (frame.status === "lobby") {
      if (!seated) add("join", w("btn.join"), true);
      if (seated && frame.host !== state.user) add("leave", w("btn.leave"));
      if (frame.host === state.user) add("start", w("btn.start"), true);
    } else if (frame.status === "playing" && frame.me && frame.game && !frame.game.out[frame.me.seat]) {
      const button = R.el("button", "quiet", w("btn.walkout"));
      button.onclick = () => { if (window.confirm(w("page.confirm_leave"))) send("leave"); };
      box.append(button);
    }
  }

  start();
})();
