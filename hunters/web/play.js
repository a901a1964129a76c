// The play page: a new game (/play) and a match played from this browser (/play/<id>), over the
// server's play routes (hunters/service/play.py) and the viewer's JSON and events (web.py). The
// board is the server's picture; each game's own clicking lives in its package's web/play.js,
// loaded by game id, which registers itself with HuntersPlay.register(gameId, {turn, key}).
// A game without one is played from the list of its legal moves. No framework, no CDN.
"use strict";

const SEATS = [["red", "#d7263d"], ["blue", "#1b6fd1"], ["yellow", "#f4c20d"], ["purple", "#7b3fbf"], ["orange", "#f07f16"]];
const modules = {};
const drawnAt = {}, heardAt = {}, fetchedAt = {};
window.HuntersPlay = { register(gameId, module) { modules[gameId] = module; }, SEATS, drawnAt, heardAt, fetchedAt };

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v; else if (k === "style") node.style.cssText = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v); else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}
window.HuntersPlay.el = el;

async function getJSON(url) {
  const resp = await fetch(url, { cache: "no-store", credentials: "same-origin" });
  const body = await resp.json();
  if (!resp.ok) throw Object.assign(new Error(body.error || resp.statusText), { reason: body.reason });
  return body;
}

async function post(url, data) {
  const resp = await fetch(url, {
    method: "POST", credentials: "same-origin", cache: "no-store",
    headers: { "Content-Type": "application/json", "X-Hunters-Request": "1" }, body: JSON.stringify(data),
  });
  const body = await resp.json();
  if (!resp.ok) throw Object.assign(new Error(body.error || resp.statusText), { reason: body.reason });
  return body;
}

function showError(e) {
  const error = document.getElementById("error");
  if (!e) { error.hidden = true; return; }
  error.textContent = e.reason ? `refused: ${e.reason}: ${e.message}` : `error: ${e.message}`;
  error.hidden = false;
}

function seatSwatch(seat) {
  return el("span", { class: "seat", style: `background:${SEATS[seat % 5][1]}`, title: SEATS[seat % 5][0] });
}

// -- a new game ---------------------------------------------------------------------------------
async function newGamePage() {
  document.getElementById("new-game").hidden = false;
  const offer = await getJSON("/api/play");
  const gameSel = document.getElementById("new-game-id");
  const playersSel = document.getElementById("new-players");
  const seats = document.querySelector("#new-seats tbody");
  for (const g of offer.games) gameSel.append(el("option", { value: g.game }, g.name + (g.playable ? "" : " (from a list of moves)")));
  document.getElementById("new-token-row").hidden = !offer.create_token_required;

  function seatRows() {
    seats.replaceChildren();
    for (let s = 0; s < Number(playersSel.value); s++) {
      const sel = el("select", { "data-seat": s, class: "seat-kind" },
        el("option", { value: "you" }, "you"), el("option", { value: "open" }, "open seat (a friend)"),
        ...offer.bots.map(b => el("option", { value: "bot:" + b }, "bot " + b)),
        el("option", { value: "custom" }, "bot, spec…"));
      sel.value = s === 0 ? "you" : "bot:" + (offer.bots.includes("greedy") ? "greedy" : offer.bots[0]);
      const custom = el("input", { class: "bot-spec", placeholder: "mcts:iterations=1000", hidden: "" });
      sel.addEventListener("change", () => { custom.hidden = sel.value !== "custom"; });
      seats.append(el("tr", {}, el("td", {}, seatSwatch(s), SEATS[s % 5][0]), el("td", {}, sel, " ", custom)));
    }
  }
  function players() {
    const g = offer.games.find(x => x.game === gameSel.value);
    playersSel.replaceChildren();
    for (let n = g.min_players; n <= g.max_players; n++) playersSel.append(el("option", { value: n }, n));
    seatRows();
  }
  gameSel.addEventListener("change", players);
  playersSel.addEventListener("change", seatRows);
  players();

  document.getElementById("new-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const bots = [];
    let you = null;
    for (const row of seats.querySelectorAll("tr")) {
      const sel = row.querySelector("select");
      const seat = Number(sel.dataset.seat);
      if (sel.value === "you") {
        if (you !== null) { showError(new Error("one seat is yours (the others: bots or open seats)")); return; }
        you = seat;
      } else if (sel.value.startsWith("bot:")) bots.push({ seat, bot: sel.value.slice(4) });
      else if (sel.value === "custom") bots.push({ seat, bot: row.querySelector(".bot-spec").value.trim() });
    }
    const body = { game: gameSel.value, players: Number(playersSel.value), bots, you, hints: document.getElementById("new-hints").checked };
    const token = document.getElementById("new-create-token").value.trim();
    if (token) body.create_token = token;
    try {
      const made = await post("/api/play", body);
      showError(null);
      if (!made.open_seats.length) { location.assign(made.url); return; }
      document.getElementById("new-form").hidden = true;
      document.getElementById("new-invites").hidden = false;
      const list = document.getElementById("new-invite-list");
      for (const o of made.open_seats) {
        const link = location.origin + o.link;
        const copy = el("button", { class: "copy", type: "button" }, "copy link");
        copy.addEventListener("click", async () => {
          try { await navigator.clipboard.writeText(link); copy.textContent = "copied"; } catch (e) { copy.textContent = "select the link and copy it"; }
        });
        list.append(el("li", { "data-seat": o.seat }, seatSwatch(o.seat), `${SEATS[o.seat % 5][0]}: `,
          el("code", { class: "invite" }, link), " ", copy,  // text, not a link: a click here would spend it on this browser
          el("details", {}, el("summary", {}, "the seat's token, for a program"), el("code", { class: "token" }, o.token))));
      }
      document.getElementById("new-go").addEventListener("click", () => location.assign(made.url));
    } catch (e) { showError(e); }
  });
}

// -- one match, played from here ----------------------------------------------------------------------
async function playPage(matchId) {
  document.getElementById("play").hidden = false;
  const board = document.getElementById("board");
  const choices = document.getElementById("choices");
  const base = `/play/${encodeURIComponent(matchId)}`;
  let state = null, seat = null, module = null, ctx = null;
  let refreshing = false, again = false, clicked = null;

  async function loadModule(gameId) {
    if (gameId in modules) return modules[gameId];
    await new Promise((resolve) => {
      const s = el("script", { src: `/static/games/${encodeURIComponent(gameId)}/play.js` });
      s.onload = resolve; s.onerror = resolve;  // none: the list of moves
      document.head.append(s);
    });
    return modules[gameId] || null;
  }

  async function refresh() {
    if (refreshing) { again = true; return; }
    refreshing = true;
    try {
      do {
        again = false;
        const both = await getJSON(`${base}/state`);
        const st = both.state, se = both.seat;
        if (state && st.version < state.version) continue;  // an older answer overtaken
        fetchedAt[st.version] = performance.timeOrigin + performance.now();
        if (module === null && ctx === null) module = await loadModule(st.game);
        render(st, se);
      } while (again);
    } catch (e) { showError(e); } finally { refreshing = false; }
  }

  function announce(prev, st) {
    const fresh = st.log.filter(e => prev !== null && e.version > prev && e.events_text);
    if (fresh.length) document.getElementById("announce").textContent = fresh.map(e => `after ${SEATS[e.seat % 5][0]}'s move: ${e.events_text}`).join(" · ");
  }

  function shown(st, se) {  // this state is drawn already (or an older one than what is drawn)
    if (!state) return false;
    if (st.version !== state.version) return st.version < state.version;
    return st.over === state.over && st.abandoned === state.abandoned && JSON.stringify(se) === JSON.stringify(seat);
  }

  function render(st, se) {
    const began = performance.now();
    try { draw(st, se); } finally { board.dataset.renderMs = (performance.now() - began).toFixed(1); }  // (bench)
  }

  function draw(st, se) {
    const prev = state ? state.version : null;
    state = st; seat = se;
    announce(prev, st);
    document.title = `hunters · play · ${st.game_name} · ${st.version}`;
    document.getElementById("title").textContent = `${st.game_name} · ${st.match_id.slice(0, 12)}`;
    board.innerHTML = st.svg;
    board.dataset.version = st.version;
    drawnAt[st.version] = performance.timeOrigin + performance.now();  // when each version was drawn (bench/play_report.py)
    const v = st.view;
    const mine = se.legal.length > 0 && se.version === st.version;
    document.body.dataset.turn = mine ? "mine" : st.over ? "over" : "waiting";
    const you = se.seat === null ? "watching" : `you are ${SEATS[se.seat % 5][0]}`;
    document.getElementById("status").textContent = v.is_over
      ? `over: ${v.winners.map(w => SEATS[w % 5][0]).join(", ") || "nobody"} won · ${you}`
      : st.abandoned ? `abandoned · ${you}` : `${you} · ${SEATS[v.player % 5][0]} to move`;
    document.getElementById("turn").textContent = mine ? "your move" : v.is_over ? "the game is over" : se.seat === null ? "" : se.bots.includes(v.player) ? "the bot is thinking…" : "waiting for the other player…";
    document.getElementById("join").hidden = !(se.seat === null && st.open !== false && !st.over);
    const scores = document.querySelector("#scores tbody");
    scores.replaceChildren();
    for (let s = 0; s < st.players; s++) {
      const score = v.scores === null ? "hidden" : v.scores[s];
      scores.append(el("tr", { "data-seat": s }, el("td", {}, seatSwatch(s), SEATS[s % 5][0], s === se.seat ? " (you)" : se.bots.includes(s) ? " (bot)" : ""), el("td", {}, score)));
    }
    const log = document.getElementById("log");
    log.replaceChildren(el("li", { "data-version": 0, value: 0 }, "set-up"));
    for (const entry of st.log) {
      const item = el("li", { "data-version": entry.version, value: entry.version }, seatSwatch(entry.seat), entry.text);
      if (entry.events_text) item.append(el("div", { class: "events" }, entry.events_text));
      log.append(item);
    }
    log.scrollTop = log.scrollHeight;  // the latest move (the page itself stays where it is)
    if (clicked !== null && st.version >= clicked.version) {  // the move played from here is drawn
      board.dataset.drawnMs = (performance.now() - clicked.t0).toFixed(1);
      clicked = null;
    }
    const hintable = se.seat !== null && st.open !== false && !st.over;
    document.getElementById("hint-button").hidden = !(hintable && se.hints);
    document.getElementById("hint-off").hidden = !(hintable && !se.hints);
    if (prev !== st.version) hintMoves.replaceChildren();  // a hint is of one position
    choices.replaceChildren();
    ctx = null;
    if (!mine) return;
    const svg = board.querySelector("svg");
    ctx = { svg, state: st, seat: se.seat, legal: se.legal, panel: choices, el, submit, describe: (move) => post(`${base}/describe`, { move }) };
    if (module) module.turn(ctx); else listOfMoves(ctx);
  }

  // A hint: what the strong bot's search would play in this seat's position (only in a match created
  // with hints; the server refuses it otherwise, with the reason shown). The H key asks too.
  const hintMoves = document.getElementById("hint-moves");
  let hinting = false;
  async function hint() {
    if (!state || hinting) return;
    hinting = true;
    const at = state.version;
    hintMoves.replaceChildren(el("p", { class: "muted" }, "thinking…"));
    try {
      const h = await post(`${base}/hint`, { top: 3 });
      showError(null);
      if (!state || state.version !== at) { hintMoves.replaceChildren(); return; }  // the match moved on
      const pct = (w) => `${Math.round(w * 100)}%`;
      const margin = (m) => `${m >= 0 ? "+" : ""}${m.toFixed(1)}`;
      const list = el("ol", { "data-version": h.version });
      for (const m of h.moves) {
        const item = el("li", { "data-action": m.action }, m.text, " ",
          el("span", { class: "figures" }, `(margin ${margin(m.margin)}, win ${pct(m.win)})`));
        if (ctx && seat && seat.legal.some((l) => JSON.stringify(l.move) === JSON.stringify(m.move))) {
          item.append(" ", el("button", { class: "play-hint", onclick: () => submit(m.move) }, "play it"));
        }
        list.append(item);
      }
      hintMoves.replaceChildren(
        el("p", {}, h.moves.length ? "strong play here:" : `not your turn: your estimated margin ${margin(h.position.margin)}, win ${pct(h.position.win)}`),
        list);
    } catch (e) {
      hintMoves.replaceChildren();
      showError(e);
    } finally {
      hinting = false;
    }
  }
  document.getElementById("hint-button").addEventListener("click", hint);

  function listOfMoves(c) {
    c.panel.append(el("p", {}, "your legal moves:"));
    for (const [i, l] of c.legal.entries()) c.panel.append(el("button", { class: "choice", "data-index": i, onclick: () => submit(l.move) }, l.text));
  }

  async function submit(move) {
    if (!state) return;
    const t0 = performance.now();
    clicked = { t0, version: state.version + 1 };
    choices.querySelectorAll("button").forEach(b => { b.disabled = true; });
    let played;
    try {
      played = await post(`${base}/move`, { move, version: state.version });
      board.dataset.answeredMs = (performance.now() - t0).toFixed(1);  // the server's answer (bench)
      showError(null);
    } catch (e) {
      clicked = null;
      showError(e);
      if (e.reason === "STALE_VERSION") {  // the match moved on without this page hearing it: show it as it is now
        document.getElementById("error").textContent += " (the match had moved on: this is where it is now)";
        await refresh();
      } else render(state, seat);  // nothing changed: the same position, offered again
      return;
    }
    if (!shown(played.now.state, played.now.seat)) render(played.now.state, played.now.seat);
  }

  document.getElementById("join-go").addEventListener("click", async () => {
    try {
      await post(`${base}/join`, { token: document.getElementById("join-token").value.trim() });
      document.getElementById("join-token").value = "";
      showError(null);
      await refresh();
    } catch (e) { showError(e); }
  });
  document.addEventListener("keydown", (ev) => {
    if (!(ev.target instanceof HTMLInputElement) && (ev.key === "h" || ev.key === "H") && seat && seat.seat !== null) {
      hint();
      ev.preventDefault();
      return;
    }
    if (ev.target instanceof HTMLInputElement || !ctx || !module || !module.key) return;
    if (ev.target instanceof HTMLButtonElement && (ev.key === "Enter" || ev.key === " ")) return;  // the button itself
    if (module.key(ev, ctx)) ev.preventDefault();
  });

  const invite = new URLSearchParams(location.hash.slice(1)).get("invite");
  if (invite) {  // an open seat's link: its invite (never sent in a request line) is taken once, for the cookie
    history.replaceState(null, "", location.pathname + location.search);
    try { await post(`${base}/join`, { invite }); } catch (e) { showError(e); }
  }
  await refresh();
  // every change arrives with the state and this browser's seat: drawn without reading it again
  const events = new EventSource(`${base}/events`);
  // Each message is drawn unless it is drawn already; messages that arrive together (a bot's reply
  // right after this page's move) are drawn once, the latest, in the task after them.
  let latest = null;
  events.onmessage = (msg) => {
    const data = JSON.parse(msg.data);
    heardAt[data.state.version] = performance.timeOrigin + performance.now();
    if (latest === null) setTimeout(() => {
      const { state: st, seat: se } = latest;
      latest = null;
      if (st.over || st.abandoned) events.close();
      if (shown(st, se)) return;
      fetchedAt[st.version] = heardAt[st.version];
      render(st, se);
    }, 0);
    if (latest === null || data.state.version >= latest.state.version) latest = data;
  };
}

const parts = location.pathname.split("/").filter(Boolean);
if (parts.length >= 2) playPage(decodeURIComponent(parts[1])); else newGamePage();
