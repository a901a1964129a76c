// Hunters & Gatherers on the play page (hunters/web/play.js loads it by game id): the tile in hand
// over every legal placement of the rotation chosen (R or the button turns it), then the occupant
// choices of the placement (the server's legal moves: meeple, hut, none, the shaman's retake), then
// confirm. Only the server's legal moves are offered.
"use strict";

(function () {
  const NS = "http://www.w3.org/2000/svg";
  let memory = { version: -1, rot: null, cell: null, pick: null };

  function svgEl(tag, attrs) {
    const node = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    return node;
  }

  function turn(ctx) {
    const { svg, legal, panel, el } = ctx;
    if (memory.version !== ctx.state.version) memory = { version: ctx.state.version, rot: null, cell: null, pick: null };
    const size = Number(svg.dataset.tileSize), x0 = Number(svg.dataset.x0), y0 = Number(svg.dataset.y0);
    const rotations = [...new Set(legal.map(l => l.move.rotation))].sort((a, b) => a - b);
    if (memory.rot === null || !rotations.includes(memory.rot)) memory.rot = rotations[0];
    const boardGroup = svg.querySelector("g.board");
    const hand = svg.querySelector("g.hand");
    const handSize = 96;

    function at(cell, rot) {
      return legal.filter(l => l.move.x === cell.x && l.move.y === cell.y && l.move.rotation === rot);
    }

    function draw() {
      svg.querySelector("#play-overlay")?.remove();
      const overlay = svgEl("g", { id: "play-overlay" });
      const cells = new Map();
      for (const l of legal) if (l.move.rotation === memory.rot) cells.set(`${l.move.x},${l.move.y}`, l.move);
      if (memory.cell && !cells.has(`${memory.cell.x},${memory.cell.y}`)) { memory.cell = null; memory.pick = null; }
      for (const m of cells.values()) {
        const spot = svgEl("rect", {
          class: "spot", "data-x": m.x, "data-y": m.y, x: (m.x - x0) * size + 2, y: (m.y - y0) * size + 2,
          width: size - 4, height: size - 4, rx: 6,
        });
        spot.addEventListener("click", () => { memory.cell = { x: m.x, y: m.y }; memory.pick = null; draw(); });
        overlay.append(spot);
      }
      if (memory.cell && hand) {  // the tile in hand, turned, where it would go
        const px = (memory.cell.x - x0) * size, py = (memory.cell.y - y0) * size;
        const ghost = svgEl("g", { class: "ghost", transform: `translate(${px},${py}) rotate(${90 * memory.rot} ${size / 2} ${size / 2}) scale(${size / handSize})`, opacity: "0.9" });
        ghost.innerHTML = hand.innerHTML;
        ghost.querySelector("title")?.remove();
        overlay.append(ghost);
        overlay.append(svgEl("rect", { class: "spot chosen", x: px + 1, y: py + 1, width: size - 2, height: size - 2 }));
      }
      boardGroup.append(overlay);

      panel.replaceChildren();
      panel.append(el("p", {}, `tile ${ctx.state.view.tile} in hand: ${cells.size} places at rotation ${memory.rot} `,
        el("button", { id: "rotate", title: "turn the tile (R)", onclick: rotate }, "rotate ⟳ (R)")));
      if (!memory.cell) { panel.append(el("p", {}, "click a highlighted place")); return; }
      const options = at(memory.cell, memory.rot);
      if (memory.pick === null) memory.pick = Math.max(0, options.findIndex(l => l.move.occupant === null && l.move.retake === null));
      panel.append(el("p", {}, `at (${memory.cell.x}, ${memory.cell.y}): what goes on the tile`));
      options.forEach((l, i) => {
        const m = l.move;
        const what = [m.retake !== null ? `take back ${l.text.match(/takes back \d+ \((\w+)\)/)?.[1] || ""} meeple ${m.retake}` : null,
          m.occupant ? l.text.slice(l.text.indexOf(m.occupant.kind)) : null].filter(Boolean).join(", ") || "nothing";
        panel.append(el("button", { class: "choice", "data-index": i, "aria-pressed": String(i === memory.pick), onclick: () => { memory.pick = i; draw(); } }, what));
      });
      panel.append(el("button", { class: "confirm", id: "confirm", title: "play it (Enter)", onclick: confirm }, "confirm (Enter)"));
    }

    function rotate() {
      memory.rot = rotations[(rotations.indexOf(memory.rot) + 1) % rotations.length];
      draw();
    }

    function confirm() {
      if (!memory.cell) return;
      const options = at(memory.cell, memory.rot);
      if (options[memory.pick]) ctx.submit(options[memory.pick].move);
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
