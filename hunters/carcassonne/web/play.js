// Hunters & Gatherers on the play page (hunters/web/play.js loads it by game id): the tile in hand
// over every legal placement of the rotation chosen (R or the button turns it), then the occupant
// choices of the placement drawn on the tile (a meeple or hut at each zone that may take one) and
// round the own meeples the shaman may take back, with the same choices listed beside; confirm.
// Only the server's legal moves are offered.
"use strict";

(function () {
  const NS = "http://www.w3.org/2000/svg";
  let memory = { version: -1, rot: null, cell: null, occ: null, retake: null };

  function svgEl(tag, attrs, title) {
    const node = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    if (title) { const t = document.createElementNS(NS, "title"); t.textContent = title; node.append(t); }
    return node;
  }

  const occKey = (m) => (m.occupant ? `${m.occupant.kind}:${m.occupant.zone}` : "none");
  function turned(u, v, rot) {  // a point of the unit tile after `rot` quarter turns clockwise
    for (let i = 0; i < rot; i++) [u, v] = [1 - v, u];
    return [u, v];
  }

  function turn(ctx) {
    const { svg, legal, panel, el } = ctx;
    if (memory.version !== ctx.state.version) memory = { version: ctx.state.version, rot: null, cell: null, occ: null, retake: null };
    const size = Number(svg.dataset.tileSize), x0 = Number(svg.dataset.x0), y0 = Number(svg.dataset.y0);
    const rotations = [...new Set(legal.map(l => l.move.rotation))].sort((a, b) => a - b);
    if (memory.rot === null || !rotations.includes(memory.rot)) memory.rot = rotations[0];
    const boardGroup = svg.querySelector("g.board");
    const hand = svg.querySelector("g.hand");
    const handSize = 96;
    const colour = window.HuntersPlay.SEATS[ctx.seat % 5][1];
    const anchors = {};  // local zone -> where its piece stands on the unturned tile, and its role
    for (const a of hand ? hand.querySelectorAll("circle.anchor") : []) {
      anchors[a.dataset.local] = { u: Number(a.getAttribute("cx")) / handSize, v: Number(a.getAttribute("cy")) / handSize, role: a.dataset.role };
    }

    const at = (cell, rot) => legal.filter(l => l.move.x === cell.x && l.move.y === cell.y && l.move.rotation === rot);
    const picked = (options) => options.find(l => occKey(l.move) === memory.occ && l.move.retake === memory.retake);

    function settle(options, keep = "occ") {
      // keep the choice legal: what was clicked last stays if it can (`keep`: "occ" or "retake"),
      // the other part follows; else no piece and no retake
      if (picked(options)) return;
      const same = keep === "retake" ? options.find(l => l.move.retake === memory.retake && l.move.occupant === null)
        || options.find(l => l.move.retake === memory.retake) : options.find(l => occKey(l.move) === memory.occ);
      const none = options.find(l => l.move.occupant === null && l.move.retake === null) || options[0];
      const l = same || none;
      memory.occ = occKey(l.move);
      memory.retake = l.move.retake;
    }

    const retakeText = (l) => `take back ${l.text.match(/takes back \d+ \((\w+)\)/)?.[1] || ""} meeple ${l.move.retake}`;
    const occText = (l) => l.text.slice(l.text.indexOf(l.move.occupant.kind));
    const what = (l) => [l.move.retake !== null ? retakeText(l) : null, l.move.occupant ? occText(l) : null].filter(Boolean).join(", ") || "nothing";

    function apart(placed, x, y, px, py) {
      // where a mark goes: inside the tile's cell (px, py) (past the board's edge the panel would
      // cover it), the point nearest its zone's place (x, y) at least GAP from the marks placed,
      // else the point farthest from them
      const GAP = 19, M = 9;
      let best = null, far = null;
      for (let qx = px + M; qx <= px + size - M; qx += 3) {
        for (let qy = py + M; qy <= py + size - M; qy += 3) {
          const room = Math.min(Infinity, ...placed.map(([ox, oy]) => Math.hypot(ox - qx, oy - qy)));
          const off = Math.hypot(qx - x, qy - y);
          if (room >= GAP && (best === null || off < best[2])) best = [qx, qy, off];
          if (far === null || room > far[2]) far = [qx, qy, room];
        }
      }
      return (best || far).slice(0, 2);
    }

    function marks(overlay, options, px, py) {
      // a piece at every zone of the tile that may take one (moved aside where two zones' places
      // are close): click to put it there (again: none)
      const placed = [];
      for (const k of new Set(options.filter(l => l.move.occupant).map(l => occKey(l.move)))) {
        const [kind, zone] = k.split(":");
        const a = anchors[Number(zone) % 10];
        if (!a) continue;
        const [u, v] = turned(a.u, a.v, memory.rot);
        const [x, y] = apart(placed, px + u * size + 7, py + v * size - 6, px, py);
        placed.push([x, y]);
        const mark = svgEl("g", {
          class: "choice-mark" + (k === memory.occ ? " picked" : ""), "data-occupant": k, role: "button",
          transform: `translate(${x},${y}) scale(0.8)`,
        }, `${kind === "hut" ? "a hut" : "a " + a.role} here`);
        mark.append(svgEl("circle", { r: 12, class: "halo" }));
        mark.append(svgEl("use", { href: kind === "hut" ? "#hg-hut" : "#hg-meeple", fill: colour, stroke: "#111", "stroke-width": 1.2 }));
        mark.addEventListener("click", (ev) => { ev.stopPropagation(); memory.occ = memory.occ === k ? "none" : k; draw("occ"); });
        overlay.append(mark);
      }
      // the shaman: a ring round each own meeple it may take back: click to take it back (again: keep it)
      for (const r of new Set(options.map(l => l.move.retake).filter(r => r !== null))) {
        const piece = svg.querySelector(`g.occupant[data-zone="${r}"]`);
        const pos = piece && /translate\(([-\d.]+),([-\d.]+)\)/.exec(piece.getAttribute("transform"));
        if (!pos) continue;
        const ring = svgEl("circle", {
          class: "retake-mark" + (r === memory.retake ? " picked" : ""), "data-zone": r, role: "button",
          cx: Number(pos[1]), cy: Number(pos[2]), r: 11,
        }, `take this meeple back (zone ${r})`);
        ring.addEventListener("click", (ev) => { ev.stopPropagation(); memory.retake = memory.retake === r ? null : r; draw("retake"); });
        overlay.append(ring);
      }
    }

    function draw(keep = "occ") {
      svg.querySelector("#play-overlay")?.remove();
      const overlay = svgEl("g", { id: "play-overlay" });
      const cells = new Map();
      for (const l of legal) if (l.move.rotation === memory.rot) cells.set(`${l.move.x},${l.move.y}`, l.move);
      if (memory.cell && !cells.has(`${memory.cell.x},${memory.cell.y}`)) memory.cell = null;
      for (const m of cells.values()) {
        const spot = svgEl("rect", {
          class: "spot", "data-x": m.x, "data-y": m.y, x: (m.x - x0) * size + 2, y: (m.y - y0) * size + 2,
          width: size - 4, height: size - 4, rx: 6,
        });
        spot.addEventListener("click", () => { memory.cell = { x: m.x, y: m.y }; draw(); });
        overlay.append(spot);
      }
      const options = memory.cell ? at(memory.cell, memory.rot) : [];
      if (memory.cell) settle(options, keep);
      if (memory.cell && hand) {  // the tile in hand, turned, where it would go, with its choices on it
        const px = (memory.cell.x - x0) * size, py = (memory.cell.y - y0) * size;
        const ghost = svgEl("g", { class: "ghost", transform: `translate(${px},${py}) rotate(${90 * memory.rot} ${size / 2} ${size / 2}) scale(${size / handSize})`, opacity: "0.9" });
        ghost.innerHTML = hand.innerHTML;
        ghost.querySelector("title")?.remove();
        overlay.append(ghost);
        overlay.append(svgEl("rect", { class: "spot chosen", x: px + 1, y: py + 1, width: size - 2, height: size - 2 }));
        marks(overlay, options, px, py);
      }
      boardGroup.append(overlay);

      panel.replaceChildren();
      panel.append(el("p", {}, `tile ${ctx.state.view.tile} in hand: ${cells.size} places at rotation ${memory.rot} `,
        el("button", { id: "rotate", title: "turn the tile (R)", onclick: rotate }, "rotate ⟳ (R)")));
      if (!memory.cell) { panel.append(el("p", {}, "click a highlighted place")); return; }
      panel.append(el("p", {}, `at (${memory.cell.x}, ${memory.cell.y}): click a piece on the tile, or choose`));
      const chosen = picked(options);
      const pieces = new Map([["none", "no piece"]]);  // each choice once, whatever the other part
      const retakes = new Map();
      for (const l of options) {
        if (l.move.occupant) pieces.set(occKey(l.move), occText(l));
        if (l.move.retake !== null) retakes.set(l.move.retake, retakeText(l));
      }
      const row = (cls, entries, now, pick, part) => entries.forEach(([k, text], i) => panel.append(el("button", {
        class: cls, "data-index": i, "data-key": k, "aria-pressed": String(k === now),
        onclick: () => { pick(k); draw(part); },
      }, text)));
      row("choice", [...pieces], memory.occ, (k) => { memory.occ = k; }, "occ");
      if (retakes.size) {
        panel.append(el("p", {}, "the shaman: take a meeple back?"));
        row("retake", [[null, "keep them all"], ...retakes], memory.retake, (k) => { memory.retake = k; }, "retake");
      }
      panel.append(el("p", { id: "picked" }, `you play: ${chosen ? what(chosen) : "nothing"}`));
      panel.append(el("button", { class: "confirm", id: "confirm", title: "play it (Enter)", onclick: confirm }, "confirm (Enter)"));
    }

    function rotate() {
      memory.rot = rotations[(rotations.indexOf(memory.rot) + 1) % rotations.length];
      draw();
    }

    function confirm() {
      if (!memory.cell) return;
      const chosen = picked(at(memory.cell, memory.rot));
      if (chosen) ctx.submit(chosen.move);
    }

    ctx.rotate = rotate;
    ctx.confirm = confirm;
    draw();
  }

  function key(ev, ctx) {
    if (ev.key === "r" || ev.key === "R") { ctx.rotate(); return true; }
    if (ev.key === "Enter") { ctx.confirm(); return true; }
    return false;
  }

  window.HuntersPlay.register("carcassonne_hg", { turn, key });
})();
