// The review of a finished match, on its viewer page (/match/<id>): asked for, its progress while
// the server computes it, then the plot of each seat's estimated margin (drawn by the server:
// hunters.review.plot_svg; a click on it picks the nearest decision), the decision's two boards side
// by side (after the move played, after the move suggested) and the costliest moves as links
// (#decision-N). It talks to /api/matches/<id>/review (hunters/service/reviewweb.py) and moves the
// main board through viewer.js's HuntersViewer. No framework, no CDN.
"use strict";

(function () {
  const viewer = window.HuntersViewer;
  if (!viewer) return;
  const SEATS = ["red", "blue", "yellow", "purple", "orange"];
  const $ = (id) => document.getElementById(id);
  const base = `/api/matches/${encodeURIComponent(viewer.matchId)}/review`;
  let review = null;        // the finished review, as the server sends it
  let polling = false;
  let asked = false;        // the review part was shown (the match is over)

  function el(tag, attrs = {}, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    return node;
  }

  async function call(method) {
    const resp = await fetch(base, method === "POST"
      ? { method, cache: "no-store", headers: { "X-Hunters-Request": "1" } }
      : { cache: "no-store" });
    const body = await resp.json();
    if (!resp.ok) throw Object.assign(new Error(body.error || resp.statusText), { reason: body.reason });
    return body;
  }

  function part(name) {  // one of ask, running, failed, done
    for (const p of ["ask", "running", "failed", "done"]) $(`review-${p}`).hidden = p !== name;
  }

  function showReport(r) {
    $("review").dataset.status = r.status;
    if (r.status === "not_requested") part("ask");
    else if (r.status === "failed") {
      part("failed");
      $("review-failed").textContent = `the review failed: ${r.message} `;
      $("review-failed").append(el("button", { id: "review-retry" }, "try again"));
      $("review-retry").addEventListener("click", start);
    } else if (r.status === "running") {
      part("running");
      const bar = $("review-progress");
      bar.max = Math.max(1, r.total);
      bar.value = r.done;
      $("review-progress-text").textContent = r.total
        ? `${r.done} of ${r.total} decisions reviewed…` : "waiting for the server's review thread…";
    } else if (r.status === "done") {
      part("done");
      draw(r.review);
    }
  }

  async function poll() {
    if (polling) return;
    polling = true;
    try {
      for (;;) {
        const r = await call("GET");
        showReport(r);
        if (r.status !== "running") return;
        await new Promise((ok) => setTimeout(ok, 700));
      }
    } catch (e) {
      part("failed");
      $("review-failed").textContent = e.reason ? `refused: ${e.reason}: ${e.message}` : `error: ${e.message}`;
    } finally {
      polling = false;
    }
  }

  async function start() {
    try {
      showReport(await call("POST"));
    } catch (e) {
      part("failed");
      $("review-failed").textContent = e.reason ? `refused: ${e.reason}: ${e.message}` : `error: ${e.message}`;
      return;
    }
    poll();
  }

  function words(d) {
    const who = d.seat >= 0 ? SEATS[d.seat % 5] : "chance";
    return `move ${d.index + 1}, ${who}`;
  }

  function draw(r) {
    if (review === r) return;
    review = r;
    $("review-by").textContent = `by ${r.analyst}`;
    const plot = $("review-plot");
    plot.innerHTML = r.svg;
    plot.querySelector("svg").addEventListener("click", (ev) => {
      const hit = ev.target.closest("[data-index]");
      const at = hit ? Number(hit.dataset.index) : nearest(ev);
      if (at !== null) choose(at);
    });
    const list = $("review-worst");
    list.replaceChildren();
    for (const i of r.worst) {
      const d = r.decisions[i];
      const link = el("a", { href: `#decision-${i}`, "data-index": i, class: `band-${d.band}` },
        `${words(d)}: ${d.band}, cost ${d.cost.toFixed(1)}`);
      link.addEventListener("click", (ev) => { ev.preventDefault(); choose(i); });
      list.append(el("li", { "data-index": i }, link, ` — played ${d.played}; suggested ${d.best}`));
    }
    if (!r.worst.length) list.append(el("li", {}, "none: every move was within the search's noise"));
    const seats = document.querySelector("#review-seats tbody");
    seats.replaceChildren();
    for (const s of r.seats) {
      seats.append(el("tr", { "data-seat": s.seat }, el("td", {}, SEATS[s.seat % 5]), el("td", {}, r.scores[s.seat]),
        el("td", {}, s.decisions), el("td", {}, s.best), el("td", {}, s.mean_cost.toFixed(2)),
        el("td", {}, s.inaccuracies), el("td", {}, s.mistakes), el("td", {}, s.blunders)));
    }
    const linked = /^#decision-(\d+)$/.exec(location.hash);
    if (linked) choose(Number(linked[1]));
  }

  function nearest(ev) {  // the searched decision whose point is nearest the click, left to right
    let best = null, gap = Infinity;
    for (const p of $("review-plot").querySelectorAll("circle.point")) {
      const box = p.getBoundingClientRect();
      const d = Math.abs(box.left + box.width / 2 - ev.clientX);
      if (d < gap) { gap = d; best = Number(p.dataset.index); }
    }
    return best;
  }

  async function choose(i) {
    if (!review || !(i >= 0 && i < review.decisions.length)) return;
    history.replaceState(null, "", `#decision-${i}`);
    const plot = $("review-plot");
    plot.querySelectorAll(".selected").forEach((n) => n.classList.remove("selected"));
    plot.querySelectorAll(`[data-index="${i}"]`).forEach((n) => n.classList.add("selected"));
    document.querySelectorAll("#review-worst li").forEach((li) => li.classList.toggle("current", li.dataset.index === String(i)));
    const box = $("review-decision");
    box.dataset.index = i;
    try {
      const resp = await fetch(`${base}/${i}`, { cache: "no-store" });
      const d = await resp.json();
      if (!resp.ok) throw new Error(d.error || resp.statusText);
      if (box.dataset.index !== String(i)) return;  // another one was chosen meanwhile
      box.hidden = false;
      viewer.go(d.moves_played);  // the main board: the position the mover faced
      const figure = d.kind === "decision"
        ? `${d.band}, cost ${d.cost.toFixed(1)} points (the mover's margin ${d.before.margin.toFixed(1)} before, ${d.after.margin.toFixed(1)} after)`
        : d.kind === "forced" ? "forced: the only legal move" : "a chance outcome";
      $("review-decision-title").textContent = `${words(d)}: ${figure}`;
      $("review-played").querySelector("figcaption").textContent = `played: ${d.played}`;
      $("review-played").querySelector(".pic").innerHTML = d.played_svg || "";
      const best = $("review-best");
      best.hidden = d.kind !== "decision";
      best.querySelector("figcaption").textContent = d.band === "best" ? `the search's choice too: ${d.best}` : `suggested: ${d.best}`;
      best.querySelector(".pic").innerHTML = d.best_svg || "";
      box.dataset.shown = i;
      box.scrollIntoView({ block: "nearest" });
    } catch (e) {
      $("review-decision-title").textContent = `error: ${e.message}`;
      box.hidden = false;
    }
  }

  $("review-start").addEventListener("click", start);
  viewer.onState.push((state) => {
    if (!state.over || asked) return;
    asked = true;  // a finished match: its review (asked for once someone wants it)
    $("review").hidden = false;
    $("review-link").hidden = false;
    poll();
  });
})();
