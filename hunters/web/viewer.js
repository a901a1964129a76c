// The live viewer: the list of matches (/) and one match (/match/<id>), from the server's JSON API
// and server-sent events (hunters/service/web.py). No framework, no CDN.
"use strict";

const SEATS = [["red", "#d7263d"], ["blue", "#1b6fd1"], ["yellow", "#f4c20d"], ["purple", "#7b3fbf"], ["orange", "#f07f16"]];

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v; else if (k === "style") node.style.cssText = v; else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

async function getJSON(url) {
  const resp = await fetch(url, { cache: "no-store" });
  const body = await resp.json();
  if (!resp.ok) throw new Error(body.error || resp.statusText);
  return body;
}

function seatSwatch(seat) {
  return el("span", { class: "seat", style: `background:${SEATS[seat % 5][1]}`, title: SEATS[seat % 5][0] });
}

// -- the list of matches --------------------------------------------------------------------------
async function listPage() {
  const body = document.querySelector("#matches tbody");
  const filter = document.getElementById("game-filter");
  const more = document.getElementById("more");
  for (const g of (await getJSON("/api/games")).games) filter.append(el("option", { value: g.game }, g.name));
  let token = "";
  async function load(reset) {
    if (reset) { token = ""; body.replaceChildren(); }
    const q = new URLSearchParams({ game: filter.value, page_token: token });
    const page = await getJSON(`/api/matches?${q}`);
    for (const m of page.matches) {
      const status = m.over ? "over" : m.abandoned ? "abandoned" : `${SEATS[m.player % 5][0]} to move`;
      body.append(el("tr", { "data-match": m.match_id },
        el("td", {}, el("a", { href: `/match/${m.match_id}` }, m.match_id.slice(0, 12))),
        el("td", {}, m.game_name), el("td", {}, m.players), el("td", {}, m.version),
        el("td", {}, status), el("td", {}, new Date(m.created_at * 1000).toLocaleString())));
    }
    token = page.next_page_token;
    more.hidden = !token;
    document.getElementById("empty").hidden = body.children.length > 0;
  }
  filter.addEventListener("change", () => load(true));
  more.addEventListener("click", () => load(false));
  await load(true);
  setInterval(() => { if (!token) load(true); }, 3000);  // a short list refreshes itself
}

// -- one match ---------------------------------------------------------------------------------------
async function matchPage() {
  const matchId = decodeURIComponent(location.pathname.split("/").pop());
  const board = document.getElementById("board");
  const follow = document.getElementById("follow");
  const error = document.getElementById("error");
  let shown = null;       // the state on screen
  let latest = 0;         // the newest version known
  let want = null;        // the version asked for last
  let loading = false;

  async function show(version) {
    want = version;
    if (loading) return;
    loading = true;
    try {
      while (want !== null) {
        const v = want;
        want = null;
        const state = await getJSON(`/api/matches/${encodeURIComponent(matchId)}?at=${v}`);
        if (want === null) render(state);
      }
      error.hidden = true;
    } catch (e) {
      error.textContent = `error: ${e.message}`;
      error.hidden = false;
    } finally {
      loading = false;
    }
  }

  function render(state) {
    shown = state;
    latest = Math.max(latest, state.latest);
    document.title = `hunters · ${state.game_name} · ${state.version}/${state.latest}`;
    document.getElementById("title").textContent = `${state.game_name} · ${state.match_id.slice(0, 12)}`;
    board.innerHTML = state.svg;  // drawn by the server from the public view
    board.dataset.version = state.version;
    board.dataset.latest = state.latest;
    const v = state.view;
    const history = (state.version < state.latest ? ` · viewing move ${state.version}` : "") + (state.hints ? " · hints on" : "");
    const status = v.is_over ? `over: ${v.winners.map(w => SEATS[w % 5][0]).join(", ") || "nobody"} won`
      : state.over ? `over${history}` : state.abandoned ? `abandoned${history}`
      : history ? `live${history}` : `live · ${SEATS[v.player % 5][0]} to move`;
    document.getElementById("status").textContent = status;
    document.getElementById("position").textContent = `move ${state.version} / ${state.latest}`;
    const scores = document.querySelector("#scores tbody");
    scores.replaceChildren();
    for (let seat = 0; seat < state.players; seat++) {
      const score = v.scores === null ? "hidden" : v.scores[seat];
      scores.append(el("tr", { "data-seat": seat }, el("td", {}, seatSwatch(seat), SEATS[seat % 5][0]), el("td", {}, score)));
    }
    const log = document.getElementById("log");
    log.replaceChildren();
    const setup = el("li", { "data-version": 0, value: 0 }, "set-up");
    if (state.setup_text) setup.append(el("div", { class: "events" }, state.setup_text));
    log.append(setup);
    for (const entry of state.log) {
      const item = el("li", { "data-version": entry.version, value: entry.version }, seatSwatch(entry.seat), entry.text);
      if (entry.events_text) item.append(el("div", { class: "events" }, entry.events_text));
      log.append(item);
    }
    for (const item of log.children) {
      const n = Number(item.dataset.version);
      item.classList.toggle("current", n === state.version);
      item.classList.toggle("future", n > state.version);
      item.addEventListener("click", () => { follow.checked = n === latest; show(n); });
    }
    const current = log.querySelector("li.current");
    if (current && follow.checked) current.scrollIntoView({ block: "nearest" });
    document.getElementById("prev").disabled = document.getElementById("first").disabled = state.version === 0;
    document.getElementById("next").disabled = document.getElementById("last").disabled = state.version >= latest;
    for (const told of viewerApi.onState) told(state);
  }

  function step(to) {
    const v = Math.max(0, Math.min(latest, to));
    follow.checked = v === latest;
    show(v);
  }
  const here = () => (want !== null && want !== "" ? want : shown ? shown.version : latest);
  // what review.js uses: go to a version, and hear of every state drawn
  const viewerApi = { matchId, go: step, onState: [] };
  window.HuntersViewer = viewerApi;
  document.getElementById("first").addEventListener("click", () => step(0));
  document.getElementById("prev").addEventListener("click", () => step(here() - 1));
  document.getElementById("next").addEventListener("click", () => step(here() + 1));
  document.getElementById("last").addEventListener("click", () => step(latest));
  follow.addEventListener("change", () => { if (follow.checked) show(latest); });
  document.addEventListener("keydown", (ev) => {
    if (ev.target instanceof HTMLInputElement && ev.target.type !== "checkbox") return;
    if (ev.key === "ArrowLeft") { step(here() - 1); ev.preventDefault(); }
    else if (ev.key === "ArrowRight") { step(here() + 1); ev.preventDefault(); }
    else if (ev.key === "Home") { step(0); ev.preventDefault(); }
    else if (ev.key === "End") { step(latest); ev.preventDefault(); }
  });

  await show("");
  const events = new EventSource(`/api/matches/${encodeURIComponent(matchId)}/events`);
  events.onmessage = (msg) => {
    const data = JSON.parse(msg.data);
    const grew = data.version !== latest;
    latest = data.version;
    if (follow.checked && (grew || (shown && shown.over !== data.over))) show(latest);
    else if (shown) {
      document.getElementById("position").textContent = `move ${shown.version} / ${latest}`;
      document.getElementById("next").disabled = document.getElementById("last").disabled = shown.version >= latest;
    }
    if (!data.open) events.close();
  };
}

if (document.body.dataset.page === "list") listPage();
else if (document.body.dataset.page === "match") matchPage();
