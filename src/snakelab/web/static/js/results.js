// Results page: the ladder (OpenSkill ratings over every stored match, μ ± 2σ), then each run with its own
// win rates (95 % Wilson intervals), newest first.
import { api, nav, showError } from "/static/js/common.js";

nav("results");
const $ = (id) => document.getElementById(id);
const pct = (x) => `${(100 * x).toFixed(1)} %`;
const num = (x, d = 2) => (x === null || x === undefined ? "–" : Number(x).toFixed(d));

function cell(tr, text, tag = "td") { const c = document.createElement(tag); c.textContent = text; tr.append(c); }

// One-player games nobody wins (a snakgame bench) are measured by score: their rows
// show the mean score and its ratio to a reference agent instead of wins.
function ratingsTable(rows) {
  const table = document.createElement("table"); table.className = "grid ratings";
  const head = document.createElement("tr");
  const anyScored = rows.some((r) => r.measure === "score");
  const anyWins = rows.some((r) => r.measure !== "score");
  const cols = ["game", "agent", "games"];
  if (anyWins) cols.push("wins", "win rate", "95 % interval");
  cols.push("mean score");
  if (anyScored) cols.push("score ratio");
  cols.push("μ", "σ", "μ ± 2σ", "ordinal");
  for (const t of cols) cell(head, t, "th");
  table.append(head);
  for (const r of rows) {
    const tr = document.createElement("tr");
    tr.dataset.measure = r.measure || "wins";
    cell(tr, r.game); cell(tr, r.agent); cell(tr, r.games);
    if (anyWins) {
      if (r.measure === "score") { cell(tr, "–"); cell(tr, "–"); cell(tr, "–"); }
      else { cell(tr, r.wins); cell(tr, pct(r.win_rate)); cell(tr, `${pct(r.ci_low)} – ${pct(r.ci_high)}`); }
    }
    cell(tr, num(r.mean_score));
    if (anyScored) {
      const ratio = r.measure === "score" && r.ratio !== null && r.ratio !== undefined ? `${num(r.ratio, 3)} × ${r.reference}` : "–";
      cell(tr, ratio);
    }
    const span = r.low === null || r.low === undefined ? "–" : `${num(r.low)} – ${num(r.high)}`;
    cell(tr, num(r.mu)); cell(tr, num(r.sigma)); cell(tr, span); cell(tr, num(r.ordinal));
    table.append(tr);
  }
  return table;
}

async function init() {
  let data;
  try { data = await api("/api/results"); } catch (err) { showError(`cannot read results: ${err.message}`); return; }
  if (!data.configured) {
    $("store").textContent = data.message; $("store").id = "no-store";
    document.body.dataset.ready = "1"; return;
  }
  $("store").textContent = `store: ${data.store} · ${data.runs.length} run(s) shown, newest first`;
  const box = $("runs");
  if (data.ratings.length) {
    // The ladder: rows come ranked by ordinal (μ − 3σ) within each game.
    const h = document.createElement("h3"); h.textContent = "Ladder: ratings over every stored match";
    box.append(h, ratingsTable(data.ratings));
  }
  for (const run of data.runs) {
    const h = document.createElement("h3");
    h.className = "run";
    h.textContent = `run #${run.id} · ${run.label || run.game} · ${run.done}/${run.planned} matches · ${run.created}${run.finished ? "" : " · unfinished"}`;
    const p = document.createElement("p"); p.className = "note"; p.textContent = `${run.game}${run.command ? " · " + run.command : ""}`;
    box.append(h, p, ratingsTable(run.ratings));
  }
  if (!data.runs.length) box.append("The store holds no runs yet.");
  document.body.dataset.ready = "1";
}
init();
