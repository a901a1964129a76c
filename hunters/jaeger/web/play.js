// Jäger und Sammler on the play page (hunters/web/play.js loads it by game id): click one of your
// characters, then where it goes (a neighbour, a cave, or off the board), then the second step (the
// same character or another); before you confirm, the server's describe() says what the turn takes,
// spends and drops. Only the server's legal moves are offered; Escape starts the turn again.
"use strict";

(function () {
  let memory = { version: -1, steps: [] };
  const same = (a, b) => a.src === b.src && a.dst === b.dst;

  function turn(ctx) {
    const { svg, legal, panel, el } = ctx;
    if (memory.version !== ctx.state.version) memory = { version: ctx.state.version, steps: [], src: null };
    const moves = legal.map(l => l.move);

    function fitting() {  // the legal moves that begin with the steps chosen so far
      return moves.filter(m => memory.steps.every((s, i) => m.steps[i] && same(m.steps[i], s)));
    }

    function spaces(ids, cls) {
      for (const g of svg.querySelectorAll("g.space")) g.classList.toggle(cls, ids.has(Number(g.dataset.space)));
    }

    function done() {  // a whole legal move chosen
      const n = memory.steps.length;
      return fitting().find(m => m.steps.length === n) || null;
    }

    async function draw() {
      const k = memory.steps.length;
      const open = fitting().filter(m => m.steps.length > k);
      const complete = done();
      panel.replaceChildren();
      spaces(new Set(), "target");
      spaces(new Set(memory.src !== null ? [memory.src] : []), "chosen-space");
      const stepName = k === 0 ? "first step" : "second step";
      if (complete && (open.length === 0 || k === 2)) { await confirmPanel(complete); return; }
      if (memory.src === null) {
        const srcs = new Set(open.map(m => m.steps[k].src));
        spaces(srcs, "target");
        panel.append(el("p", {}, `${stepName}: click one of your characters (highlighted)`));
        if (complete) panel.append(el("button", { class: "choice", id: "stop-here", onclick: () => confirmPanel(complete) }, "no second step"));
      } else {
        const dsts = open.filter(m => m.steps[k].src === memory.src).map(m => m.steps[k].dst);
        spaces(new Set(dsts.filter(d => d !== null)), "target");
        panel.append(el("p", {}, `${stepName}: the character on ${memory.src} goes to… (a highlighted space)`));
        if (dsts.includes(null)) panel.append(el("button", { class: "choice", id: "leave", onclick: () => pick(null) }, "leave the board"));
        panel.append(el("button", { class: "choice", id: "other", onclick: () => { memory.src = null; draw(); } }, "another character"));
      }
      if (k > 0) panel.append(el("button", { class: "choice", id: "restart", onclick: restart }, "start the turn again (Esc)"));
      panel.append(el("p", { class: "chosen" }, memory.steps.map(s => `${s.src}→${s.dst === null ? "off" : s.dst}`).join(", ")));
    }

    function restart() { memory.steps = []; memory.src = null; draw(); }

    function pick(dst) {
      memory.steps.push({ src: memory.src, dst });
      memory.src = null;
      const k = memory.steps.length;
      // the second step's character: the one that moved, when it is the only one that can go on
      const next = new Set(fitting().filter(m => m.steps.length > k).map(m => m.steps[k].src));
      if (next.size === 1 && !done()) memory.src = [...next][0];
      draw();
    }

    async function confirmPanel(move) {
      spaces(new Set(), "target");
      panel.replaceChildren(el("p", {}, "checking…"));
      let what;
      try { what = await ctx.describe(move); } catch (e) { panel.replaceChildren(el("p", { class: "error" }, e.message)); return; }
      const lines = [];
      for (const s of what.detail ? what.detail.steps : []) {
        const parts = [`${s.src}→${s.dst === null ? "off the board" : s.dst} (${s.kind.replace("_", " ")})`];
        if (s.takes) parts.push(`takes ${s.takes}`);
        if (s.spends_weapon) parts.push("spends a weapon");
        if (s.supply_pack) parts.push("drops a supply pack");
        lines.push(parts.join(", "));
      }
      if (what.detail && what.detail.ends_season) lines.push("this ends the season");
      panel.replaceChildren(el("p", {}, "your turn:"), el("ul", { id: "turn-summary" }, ...lines.map(t => el("li", {}, t))),
        el("button", { class: "confirm", id: "confirm", title: "play it (Enter)", onclick: () => ctx.submit(move) }, "confirm (Enter)"),
        el("button", { class: "choice", id: "restart", onclick: restart }, "start the turn again (Esc)"));
      ctx.pending = move;
    }

    svg.addEventListener("click", (ev) => {
      const hit = ev.target.closest("[data-space]");
      if (!hit) return;
      const space = Number(hit.dataset.space);
      const k = memory.steps.length;
      const open = fitting().filter(m => m.steps.length > k);
      if (memory.src !== null && open.some(m => m.steps[k].src === memory.src && m.steps[k].dst === space)) pick(space);
      else if (open.some(m => m.steps[k].src === space)) { memory.src = space; draw(); }
    });
    ctx.restart = restart;
    ctx.pending = null;
    draw();
  }

  function key(ev, ctx) {
    if (ev.key === "Escape") { ctx.restart(); return true; }
    if (ev.key === "Enter" && ctx.pending) { ctx.submit(ctx.pending); return true; }
    return false;
  }

  window.HuntersPlay.register("jaeger_sammler", { turn, key });
})();
