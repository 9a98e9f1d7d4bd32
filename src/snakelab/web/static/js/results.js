// Results page: runs from the results store with per-agent win rates (95 % Wilson intervals).
import { api, nav, showError } from "/static/js/common.js";

nav("results");
const $ = (id) => document.getElementById(id);
const pct = (x) => `${(100 * x).toFixed(1)} %`;

function cell(tr, text, tag = "td") { const c = document.createElement(tag); c.textContent = text; tr.append(c); }

async function init() {
  let data;
  try { data = await api("/api/results"); } catch (err) { showError(`cannot read results: ${err.message}`); return; }
  if (!data.configured) { $("store").textContent = data.message; $("store").id = "no-store"; document.body.dataset.ready = "1"; return; }
  $("store").textContent = `store: ${data.store} · ${data.runs.length} run(s), newest first`;
  const box = $("runs");
  for (const run of data.runs) {
    const h = document.createElement("h3");
    h.textContent = `run #${run.id} · ${run.label || run.game} · ${run.done}/${run.planned} matches · ${run.created}${run.finished ? "" : " · unfinished"}`;
    const p = document.createElement("p"); p.className = "note"; p.textContent = `${run.game} · ${run.command || ""}`;
    const table = document.createElement("table"); table.className = "grid";
    const head = document.createElement("tr");
    for (const t of ["agent", "games", "wins", "win rate", "95 % interval", "mean score"]) cell(head, t, "th");
    table.append(head);
    for (const row of run.agents_table) {
      const tr = document.createElement("tr");
      cell(tr, row.agent); cell(tr, row.games); cell(tr, row.wins); cell(tr, pct(row.win_rate));
      cell(tr, `${pct(row.ci95[0])} – ${pct(row.ci95[1])}`); cell(tr, Number(row.mean_score).toFixed(2));
      table.append(tr);
    }
    box.append(h, p, table);
  }
  if (!data.runs.length) box.textContent = "The store holds no runs yet.";
  document.body.dataset.ready = "1";
}
init();
