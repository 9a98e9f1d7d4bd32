// Shared helpers for every page: API calls, drawer loading, panels.
// Drawers are plain ES modules in /static/drawers/<game>.js exporting
//   draw(canvas, state, view)   view = {overlay, showOverlay, frame, history, index}
//   needsHistory (optional): true to get every frame so far in view.history (live pages keep them)
//   summary(state, frame, view) -> [[label, value, colour?], ...]   (frame.view: server-side extras)
//   keys (optional): {KeyboardEvent.key: action JSON} for human play

const drawerCache = new Map();

export async function loadDrawer(gameId) {
  if (!drawerCache.has(gameId)) {
    drawerCache.set(gameId, import(`/static/drawers/${encodeURIComponent(gameId)}.js`)
      .catch(() => import("/static/drawers/generic.js")));
  }
  return drawerCache.get(gameId);
}

export async function api(path, options = {}) {
  const res = await fetch(path, options);
  let data = null;
  try { data = await res.json(); } catch { data = null; }
  if (!res.ok) {
    const msg = data && data.error ? data.error : `${res.status} ${res.statusText}`;
    throw new Error(msg);
  }
  return data;
}

export function showError(message) {
  const box = document.getElementById("error");
  if (!box) return;
  if (message) { box.textContent = message; box.classList.remove("hidden"); }
  else { box.textContent = ""; box.classList.add("hidden"); }
}

export function fillSummary(table, rows) {
  table.replaceChildren();
  for (const [k, v, colour] of rows) {
    const tr = document.createElement("tr");
    const a = document.createElement("td"); a.textContent = k;
    if (colour) { a.style.color = colour; a.style.fontWeight = "600"; }
    const b = document.createElement("td"); b.textContent = v === null || v === undefined ? "–" : String(v);
    tr.append(a, b); table.append(tr);
  }
}

export function eventText(ev) {
  const { kind, player, ...rest } = ev;
  const who = player === undefined || player === null ? "" : `p${player} `;
  const extra = Object.keys(rest).length ? " " + JSON.stringify(rest) : "";
  return `${who}${kind}${extra}`;
}

export function outcomeText(outcome) {
  if (!outcome) return "";
  const scores = (outcome.scores || []).map((s) => Number(s).toLocaleString()).join(" / ");
  const winner = outcome.winner === null || outcome.winner === undefined ? "no winner" : `winner p${outcome.winner}`;
  return `${outcome.termination} · ${winner} · scores ${scores}`;
}

// Draw a frame, turning a drawer crash into a visible error instead of a blank board.
export function safeDraw(drawer, canvas, state, view) {
  try {
    drawer.draw(canvas, state, view);
    return true;
  } catch (err) {
    showError(`cannot draw this state: ${err.message}`);
    return false;
  }
}

// Zoom of the board: 1 fits the board to the panel; larger values magnify it and the
// board scrolls inside its frame (#board-wrap), so the page itself never widens.
let zoom = 1;
export const ZOOM_STEPS = [1, 1.5, 2, 3, 4, 6, 8, 12, 16];
export function getZoom() { return zoom; }
export function setZoom(z) {
  zoom = Math.max(ZOOM_STEPS[0], Math.min(ZOOM_STEPS[ZOOM_STEPS.length - 1], z));
  const label = document.getElementById("zoom-label");
  if (label) label.textContent = zoom === 1 ? "fit" : `${zoom}×`;
  return zoom;
}

// Wire the zoom buttons (#zoom-in, #zoom-out, #zoom-fit) to redraw with `redraw`.
export function zoomControls(redraw) {
  const step = (dir) => {
    const i = ZOOM_STEPS.findIndex((z) => z >= zoom);
    setZoom(ZOOM_STEPS[Math.max(0, Math.min(ZOOM_STEPS.length - 1, (i < 0 ? 0 : i) + dir))]);
    redraw();
  };
  const on = (id, fn) => { const el = document.getElementById(id); if (el) el.onclick = fn; };
  on("zoom-in", () => step(1));
  on("zoom-out", () => step(-1));
  on("zoom-fit", () => { setZoom(1); redraw(); });
  setZoom(zoom);
}

// Size a canvas for a board of cols x rows cells; returns the cell size in CSS pixels.
// At zoom 1 the whole board fits the room the panel has, however large the board:
// cells may be a fraction of a pixel wide (a 532×526 snakgame grid), never wider than
// the page. Zoomed in, the canvas grows and its frame scrolls.
export function fitCanvas(canvas, cols, rows, opts = {}) {
  const frame = canvas.parentElement && canvas.parentElement.id === "board-wrap" ? canvas.parentElement : null;
  const holder = frame ? frame.parentElement : canvas.parentElement;
  const room = holder ? holder.clientWidth - 24 : window.innerWidth - 48;
  const maxW = Math.min(opts.maxWidth || 720, Math.max(120, room));
  const maxH = opts.maxHeight || Math.max(240, window.innerHeight - 220);
  const extraH = opts.extraHeight || 0;
  let cell = Math.min(maxW / cols, (maxH - extraH) / rows);
  // Whole pixels keep grid lines crisp when there is room for them.
  if (cell >= 4) cell = Math.floor(cell);
  cell = Math.max(0.25, cell) * zoom;
  const w = cell * cols, h = cell * rows + extraH;
  const dpr = window.devicePixelRatio || 1;
  const pw = Math.max(1, Math.round(w * dpr)), ph = Math.max(1, Math.round(h * dpr));
  if (canvas.width !== pw || canvas.height !== ph) {
    canvas.width = pw; canvas.height = ph;
    canvas.style.width = `${w}px`; canvas.style.height = `${h}px`;
  }
  if (frame) frame.style.maxWidth = `${Math.max(120, room)}px`;
  const ctx = canvas.getContext("2d");
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, w, h);
  return { ctx, cell, w, h };
}

// An action as people read it: the drawer's own words when it has them, else its JSON.
export function actionText(drawer, action) {
  if (drawer && typeof drawer.actionName === "function") {
    const name = drawer.actionName(action);
    if (name !== undefined && name !== null) return String(name);
  }
  return JSON.stringify(action);
}

// A distinct, colour-blind-friendly colour per player (Okabe–Ito).
export const PLAYER_COLOURS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9"];

// Draw a snake as one joined stroke (head first list of [x, y]) with a marked head.
export function drawSnake(ctx, cells, cell, colour, opts = {}) {
  if (!cells || !cells.length) return;
  const c = (v) => (v + 0.5) * cell;
  ctx.save();
  ctx.strokeStyle = colour; ctx.lineCap = "round"; ctx.lineJoin = "round";
  ctx.lineWidth = Math.max(1, cell * (opts.width || 0.62));
  ctx.globalAlpha = opts.alpha ?? 1;
  ctx.beginPath();
  ctx.moveTo(c(cells[0][0]), c(cells[0][1]));
  for (let i = 1; i < cells.length; i++) {
    const [x, y] = cells[i], [px, py] = cells[i - 1];
    // Cells that are not neighbours on the page (a torus wrap) start a new stroke.
    if (Math.abs(x - px) + Math.abs(y - py) > 1) ctx.moveTo(c(x), c(y));
    else ctx.lineTo(c(x), c(y));
  }
  if (cells.length === 1) ctx.lineTo(c(cells[0][0]) + 0.01, c(cells[0][1]));
  ctx.stroke();
  ctx.fillStyle = opts.headColour || colour;
  ctx.beginPath();
  ctx.arc(c(cells[0][0]), c(cells[0][1]), cell * 0.42, 0, Math.PI * 2);
  ctx.fill();
  ctx.fillStyle = "#fff";
  ctx.beginPath();
  ctx.arc(c(cells[0][0]), c(cells[0][1]), Math.max(1, cell * 0.12), 0, Math.PI * 2);
  ctx.fill();
  ctx.restore();
}

export function drawGrid(ctx, cols, rows, cell, colour = "#eeece6") {
  if (cell < 6) return;
  ctx.save();
  ctx.strokeStyle = colour; ctx.lineWidth = 1;
  ctx.beginPath();
  for (let x = 0; x <= cols; x++) { ctx.moveTo(x * cell + 0.5, 0); ctx.lineTo(x * cell + 0.5, rows * cell); }
  for (let y = 0; y <= rows; y++) { ctx.moveTo(0, y * cell + 0.5); ctx.lineTo(cols * cell, y * cell + 0.5); }
  ctx.stroke();
  ctx.restore();
}

export function drawApple(ctx, x, y, cell, colour = "#c62828") {
  ctx.save();
  ctx.fillStyle = colour;
  ctx.beginPath();
  ctx.arc((x + 0.5) * cell, (y + 0.5) * cell, cell * 0.36, 0, Math.PI * 2);
  ctx.fill();
  ctx.restore();
}

export function nav(here) {
  for (const a of document.querySelectorAll("header nav a")) {
    if (a.dataset.page === here) a.classList.add("here");
  }
}
