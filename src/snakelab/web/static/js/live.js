// Live games and human play: the server plays and streams frames; this page draws.
import {
  api, eventText, fillSummary, loadDrawer, nav, outcomeText, safeDraw, showError, zoomControls,
} from "/static/js/common.js";

nav("live");
const $ = (id) => document.getElementById(id);
const board = $("board");
let games = [];
let ws = null;
let drawer = null;
let drawerGame = null; // the game id `drawer` belongs to: never draw another game's frames with it
let meta = null;
let lastFrame = null;
let lastStep = -1;
let history = []; // every frame of this game, kept only for drawers that need the past
let paused = false;
const MAX_EVENTS = 300;
let frameTimes = []; // [step, arrival ms] of the last frames, for tests of the pace

function currentGame() { return games.find((g) => g.id === $("game-select").value); }

const OTHER = "__other__";

function renderSeats() {
  const g = currentGame();
  const box = $("seats");
  box.replaceChildren();
  if (!g) return;
  for (let i = 0; i < g.num_players; i++) {
    const label = document.createElement("label");
    label.textContent = `player ${i}`;
    const sel = document.createElement("select");
    sel.className = "seat"; sel.dataset.player = String(i);
    const names = [...g.agents];
    if (g.human && i === 0) names.push("human");
    for (const name of names) {
      const opt = document.createElement("option");
      opt.value = name; opt.textContent = name === "human" ? "human (you)" : name;
      sel.append(opt);
    }
    // Agents that need parameters (external bots: a program path) are typed in full.
    const other = document.createElement("option");
    other.value = OTHER;
    other.textContent = g.needs_params && g.needs_params.length ? `other… (${g.needs_params.join(", ")})` : "other…";
    sel.append(other);
    const custom = document.createElement("input");
    custom.type = "text"; custom.className = "seat-custom hidden"; custom.id = `seat-${i}-custom`;
    custom.placeholder = g.needs_params && g.needs_params.length ? `${g.needs_params[0]}(path='./my_bot')` : `${g.id}.name(key=value)`;
    sel.onchange = () => custom.classList.toggle("hidden", sel.value !== OTHER);
    const best = names.find((n) => /champion/.test(n)) || names.find((n) => /greedy/.test(n)) || names[0];
    if (best) sel.value = best; else { sel.value = OTHER; custom.classList.remove("hidden"); }
    label.htmlFor = sel.id = `seat-${i}`;
    box.append(label, sel, custom);
  }
  $("game-string").value = g.default;
  $("human-help").textContent = g.human ? `Human play: ${g.human.help}` : "";
}

function seatAgents() {
  return [...document.querySelectorAll("select.seat")].map((s) =>
    s.value === OTHER ? $(`${s.id}-custom`).value.trim() : s.value);
}

function connect() {
  return new Promise((resolve, reject) => {
    if (ws && ws.readyState === WebSocket.OPEN) { resolve(ws); return; }
    const proto = location.protocol === "https:" ? "wss" : "ws";
    ws = new WebSocket(`${proto}://${location.host}/ws/live`);
    ws.onopen = () => { $("connection").textContent = ""; resolve(ws); };
    ws.onerror = () => reject(new Error("cannot reach the server's WebSocket"));
    ws.onclose = () => { $("connection").textContent = "(disconnected)"; ws = null; };
    // One message at a time, in order: a game's frames wait for its drawer to load.
    ws.onmessage = (ev) => {
      const msg = JSON.parse(ev.data);
      if (msg.type === "frame") msg.receivedAt = performance.now();
      inbox = inbox.then(() => onMessage(msg)).catch((err) => showError(`cannot show this message: ${err.message}`));
    };
  });
}

let inbox = Promise.resolve();

function send(msg) { if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg)); }

function currentView() {
  return { overlay: meta ? meta.overlay : {}, showOverlay: $("show-overlay").checked, frame: lastFrame, history, index: history.length - 1 };
}

function ready() { return drawer && lastFrame && meta && drawerGame === meta.game_id; }

function draw() {
  if (!ready()) return;
  safeDraw(drawer, board, lastFrame.state, currentView());
}

let drawQueued = false;
function scheduleDraw() {
  // Frames may arrive faster than the screen refreshes; draw the newest once per paint.
  if (drawQueued) return;
  drawQueued = true;
  requestAnimationFrame(() => { drawQueued = false; draw(); updatePanels(); });
}

function updatePanels() {
  if (!ready()) return;
  $("step-label").textContent = `step ${lastFrame.step}`;
  board.dataset.step = String(lastFrame.step);
  board.dataset.actions = JSON.stringify(lastFrame.actions || []);
  showAchieved();
  fillSummary($("summary"), drawer.summary(lastFrame.state, lastFrame, currentView()));
}

function paceText(fps) { return fps >= 10 || Number.isInteger(fps) ? String(Math.round(fps)) : fps.toFixed(1); }

// The pace the server is asked to play at (a human game, or arena, runs at its own speed):
// the slider shows it, and the label until frames say what is really achieved.
let askedFps = 10;
function showSpeed(fps) {
  if (typeof fps !== "number") return;
  askedFps = fps;
  $("fps-label").textContent = paceText(fps);
  $("fps-asked").textContent = "";
  $("fps").value = String(Math.round(Math.min(Number($("fps").max), Math.max(Number($("fps").min), fps))));
}

// The pace really achieved: steps per second over the frames shown in the last two seconds.
const PACE_WINDOW_MS = 2000;
function achievedPace() {
  const now = performance.now();
  const recent = frameTimes.filter(([, t]) => now - t <= PACE_WINDOW_MS);
  if (recent.length < 3) return null;
  const [s0, t0] = recent[0], [s1, t1] = recent[recent.length - 1];
  if (t1 <= t0 || s1 <= s0) return null;
  const span = t1 - t0;
  const gap = now - t1; // a stall since the last frame counts too
  return ((s1 - s0) * 1000) / (gap > (2 * span) / (s1 - s0) ? span + gap : span);
}

// The label says the pace the game is really shown at, and what was asked when that differs.
function showAchieved() {
  if (paused || !meta || board.dataset.ended === "1") return;
  const pace = achievedPace();
  if (pace === null) return;
  $("fps-label").textContent = paceText(pace);
  $("fps-asked").textContent = Math.abs(pace - askedFps) > 0.15 * askedFps ? `(asked ${paceText(askedFps)})` : "";
  board.dataset.pace = String(pace);
}

function logEvents(step, events) {
  const list = $("events");
  for (const ev of events) {
    const li = document.createElement("li");
    li.textContent = `${step}: ${eventText(ev)}`;
    list.prepend(li);
  }
  while (list.children.length > MAX_EVENTS) list.lastChild.remove();
}

async function onMessage(msg) {
  if (msg.type === "meta") {
    meta = msg; lastStep = -1; lastFrame = null; history = [];
    drawer = null; drawerGame = null;
    board.dataset.step = "-1"; // the previous game's step no longer applies
    board.dataset.started = String(Number(board.dataset.started || 0) + 1); // games begun on this page
    delete board.dataset.firstStep;
    $("summary").replaceChildren();
    const loaded = await loadDrawer(msg.game_id);
    if (meta !== msg) return; // another game started while this drawer loaded
    drawer = loaded; drawerGame = msg.game_id;
    showSpeed(msg.fps);
    frameTimes = [];
    $("events").replaceChildren();
    $("outcome").textContent = "";
    showError("");
    paused = msg.paused; syncButtons(true);
    const humans = Object.keys(msg.humans || {});
    board.dataset.human = humans.length ? humans.join(",") : "";
    const turn = humans.some((h) => msg.humans[h].mode === "turn");
    $("typing").classList.toggle("hidden", !turn);
    $("notice").textContent = "";
    $("replay-link").classList.add("hidden");
    if (humans.length) { board.focus(); $("human-help").textContent = `You are player ${humans.join(", ")}: ${msg.humans[humans[0]].help}`; }
    board.dataset.game = msg.game;
    $("show-overlay").closest(".row").classList.toggle("hidden", !(msg.overlay && msg.overlay.cycle));
    board.dataset.ended = "";
  } else if (msg.type === "frame") {
    // Frames carry their step number: drop duplicates and stale ones.
    if (!meta || msg.step <= lastStep) return;
    if (lastStep === -1) board.dataset.firstStep = String(msg.step); // where this game began
    lastStep = msg.step; lastFrame = msg;
    frameTimes.push([msg.step, msg.receivedAt]);
    if (frameTimes.length > 50) frameTimes.shift();
    board.dataset.frameTimes = JSON.stringify(frameTimes);
    if (drawer && drawer.needsHistory) history.push(msg);
    logEvents(msg.step, msg.events);
    scheduleDraw();
  } else if (msg.type === "end") {
    $("outcome").textContent = outcomeText(msg.outcome);
    if (msg.notices && msg.notices.length) $("notice").textContent = msg.notices.join(" · ");
    if (meta && meta.recording) {
      $("replay-link").href = `/replays?path=${encodeURIComponent(meta.recording)}`;
      $("replay-link").classList.remove("hidden");
    }
    board.dataset.ended = "1";
    syncButtons(false);
  } else if (msg.type === "status") {
    paused = msg.paused; syncButtons(true); showSpeed(msg.fps);
  } else if (msg.type === "notice") {
    $("notice").textContent = msg.message;
  } else if (msg.type === "error") {
    showError(msg.message);
  }
}

function syncButtons(running) {
  $("pause").disabled = !running; $("step").disabled = !running; $("restart").disabled = !meta;
  $("pause").textContent = paused ? "Resume" : "Pause";
}

async function start() {
  showError("");
  const agents = seatAgents();
  const msg = {
    type: "start", game: $("game-string").value, agents, seed: Number($("seed").value || 1),
    fps: Number($("fps").value), record: $("record").checked,
  };
  try { await connect(); } catch (err) { showError(err.message); return; }
  send(msg);
}

setInterval(showAchieved, 500); // a game that stalls shows it, between frames too

$("start").onclick = start;
$("pause").onclick = () => send({ type: paused ? "resume" : "pause" });
$("step").onclick = () => send({ type: "step" });
$("restart").onclick = () => send({ type: "restart" });
$("fps").oninput = () => {
  askedFps = Number($("fps").value);
  $("fps-label").textContent = $("fps").value; $("fps-asked").textContent = "";
  frameTimes = []; // the pace achieved from now on, at the new speed
  send({ type: "speed", fps: askedFps });
};
$("show-overlay").onchange = draw;
zoomControls(() => { draw(); });
window.addEventListener("resize", () => scheduleDraw());
$("game-select").onchange = renderSeats;

document.addEventListener("keydown", (ev) => {
  if (!meta || !drawer || drawerGame !== meta.game_id) return;
  if (ev.target instanceof HTMLInputElement || ev.target instanceof HTMLSelectElement) return;
  const humans = Object.keys(meta.humans || {});
  if (!humans.length) {
    // Watching only: Space pauses or resumes, "." plays one step.
    if (ev.key === " ") { send({ type: paused ? "resume" : "pause" }); ev.preventDefault(); }
    else if (ev.key === ".") { send({ type: "step" }); ev.preventDefault(); }
    return;
  }
  if (!drawer.keys) return;
  const action = drawer.keys[ev.key] ?? drawer.keys[ev.key.toLowerCase()];
  if (action === undefined) return;
  ev.preventDefault();
  send({ type: "action", player: Number(humans[0]), action });
});

$("type-commands").addEventListener("keydown", (ev) => {
  if (ev.key !== "Enter" || !meta) return;
  const humans = Object.keys(meta.humans || {});
  if (!humans.length) return;
  for (const ch of $("type-commands").value) send({ type: "action", player: Number(humans[0]), action: ch });
  $("type-commands").value = "";
  ev.preventDefault();
});

async function init() {
  try {
    games = (await api("/api/games")).games;
  } catch (err) { showError(`cannot list games: ${err.message}`); return; }
  const sel = $("game-select");
  for (const g of games) {
    const opt = document.createElement("option");
    opt.value = g.id; opt.textContent = `${g.id} — ${g.summary}`;
    sel.append(opt);
  }
  const params = new URLSearchParams(location.search);
  const wanted = params.get("game") || "classic";
  if (games.some((g) => g.id === wanted)) sel.value = wanted;
  renderSeats();
  if (params.get("seed")) $("seed").value = params.get("seed");
  const fps = Number(params.get("fps"));
  if (params.get("fps") && Number.isFinite(fps) && fps > 0) showSpeed(fps);
  document.body.dataset.ready = "1";
}
init();
