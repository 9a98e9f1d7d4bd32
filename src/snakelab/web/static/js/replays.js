// Replay page: list or upload a replay, then scrub it (slider, buttons, keys).
import {
  actionText, api, eventText, fillSummary, loadDrawer, nav, outcomeText, safeDraw, showError, zoomControls,
} from "/static/js/common.js";

nav("replays");
const $ = (id) => document.getElementById(id);
const board = $("board");
let replay = null;
let drawer = null;
let index = 0;
let timer = null;
const MAX_TIMELINE = 2000;

function clear() {
  replay = null; stop();
  $("scrub").disabled = true; $("scrub").max = "0"; $("scrub").value = "0";
  $("summary").replaceChildren(); $("events").replaceChildren(); $("timeline").replaceChildren();
  $("outcome").textContent = ""; $("replay-name").textContent = ""; $("replay-game").textContent = "";
  $("step-label").textContent = "no replay open";
  board.dataset.step = "-1"; board.dataset.game = "";
  const ctx = board.getContext("2d"); ctx.clearRect(0, 0, board.width, board.height);
}

async function open(data, from) {
  showError("");
  source = data.upload ? { upload: data.upload } : from;
  fetched.length = 0;
  drawer = await loadDrawer(data.game_id);
  replay = data; index = 0;
  $("replay-name").textContent = data.name || "";
  const agents = (data.header.agents || []).join(" vs ");
  let how = data.lazy ? " · large: states re-simulated as shown" : data.resimulated ? " · states re-simulated" : "";
  if (data.truncated) how += ` · truncated: the file ends after step ${data.frames.length - 1} (a crashed or stopped run)`;
  $("replay-game").textContent = `${data.header.game} · seed ${data.header.seed}${agents ? " · " + agents : ""}${how}`;
  $("scrub").max = String(data.frames.length - 1); $("scrub").disabled = false;
  $("outcome").textContent = data.truncated ? "no outcome: the replay is truncated" : outcomeText(data.outcome);
  board.dataset.game = data.game_id;
  $("show-overlay").closest(".row").classList.toggle("hidden", !(data.overlay && data.overlay.cycle));
  board.dataset.frames = String(data.frames.length);
  buildTimeline();
  await show(0);
  board.focus();
}

function buildTimeline() {
  const list = $("timeline");
  list.replaceChildren();
  let n = 0;
  for (let i = 0; i < replay.frames.length && n < MAX_TIMELINE; i++) {
    const f = replay.frames[i];
    if (!f.events || !f.events.length) continue;
    const li = document.createElement("li");
    li.className = "clickable"; li.dataset.index = String(i);
    li.textContent = `${f.step}: ${f.events.map(eventText).join("; ")}`;
    li.onclick = () => show(i);
    list.append(li); n++;
  }
  if (!n) list.innerHTML = '<li class="note">no events</li>';
}

// Large replays come without their states ("lazy"); each is fetched as it is shown,
// and only the most recent few hundred are kept.
let source = null;
const fetched = [];
const KEEP_STATES = 400;
let showToken = 0;

async function ensureState(i) {
  const f = replay.frames[i];
  if (f.state !== null || !replay.lazy) return f;
  const q = source.upload ? `upload=${encodeURIComponent(source.upload)}` : `path=${encodeURIComponent(source.path)}`;
  const data = await api(`/api/replay/state?${q}&step=${f.step}`);
  f.state = data.state;
  if (data.view) f.view = data.view;
  fetched.push(i);
  if (fetched.length > KEEP_STATES) {
    const old = fetched.shift();
    if (old !== 0) { replay.frames[old].state = null; delete replay.frames[old].view; }
  }
  return f;
}

async function show(i) {
  if (!replay) return;
  index = Math.max(0, Math.min(replay.frames.length - 1, Number.isFinite(i) ? Math.trunc(i) : 0));
  const token = ++showToken;
  const mine = replay;
  let f;
  try { f = await ensureState(index); } catch (err) { showError(`cannot load step ${index}: ${err.message}`); return; }
  if (token !== showToken || mine !== replay) return; // a newer request took over
  const view = { overlay: replay.overlay || {}, showOverlay: $("show-overlay").checked, frame: f, history: replay.frames, index };
  safeDraw(drawer, board, f.state, view);
  $("scrub").value = String(index);
  $("step-label").textContent = `step ${f.step} / ${replay.frames[replay.frames.length - 1].step}`;
  board.dataset.step = String(f.step);
  fillSummary($("summary"), drawer.summary(f.state, f, view));
  const ev = $("events");
  ev.replaceChildren();
  const actions = (f.actions || []).map((a, p) => (a === null ? null : `p${p}: ${actionText(drawer, a)}`)).filter(Boolean);
  if (actions.length) { const li = document.createElement("li"); li.className = "note"; li.textContent = `actions ${actions.join(", ")}`; ev.append(li); }
  for (const e of f.events || []) { const li = document.createElement("li"); li.textContent = eventText(e); ev.append(li); }
  if (!(f.events || []).length) { const li = document.createElement("li"); li.className = "note"; li.textContent = "no events"; ev.append(li); }
  for (const li of $("timeline").querySelectorAll("li.current")) li.classList.remove("current");
  const cur = $("timeline").querySelector(`li[data-index="${index}"]`);
  if (cur) cur.classList.add("current");
  writeAddress();
}

// The address carries the shown step and the speed, so a copied link opens here.
// Browsers limit how often history.replaceState may run, so playing writes it at most
// a few times a second (and once more when it stops).
let addressTimer = null;
function writeAddress(now = false) {
  if (!replay || !source || !source.path) return;
  const write = () => {
    addressTimer = null;
    const url = new URL(location.href);
    url.searchParams.set("path", source.path);
    url.searchParams.set("step", String(replay.frames[index].step));
    url.searchParams.set("fps", $("fps").value);
    history.replaceState(null, "", url);
    board.dataset.address = url.search;
  };
  if (now || !timer) { if (addressTimer) clearTimeout(addressTimer); write(); }
  else if (!addressTimer) addressTimer = setTimeout(write, 250);
}

function stop() {
  if (timer) { clearInterval(timer); timer = null; writeAddress(true); }
  $("play").textContent = "▶";
}
function play() {
  if (!replay) return;
  if (timer) { stop(); return; }
  if (index >= replay.frames.length - 1) show(0);
  $("play").textContent = "⏸";
  let busy = false;
  timer = setInterval(() => {
    if (busy) return; // a lazy state is still on its way
    if (index >= replay.frames.length - 1) { stop(); return; }
    busy = true;
    show(index + 1).finally(() => { busy = false; });
  }, 1000 / Number($("fps").value));
}

$("scrub").oninput = () => { stop(); show(Number($("scrub").value)); };
$("first").onclick = () => { stop(); show(0); };
$("prev").onclick = () => { stop(); show(index - 1); };
$("next").onclick = () => { stop(); show(index + 1); };
$("last").onclick = () => { stop(); if (replay) show(replay.frames.length - 1); };
$("play").onclick = play;
$("fps").oninput = () => {
  $("fps-label").textContent = $("fps").value;
  if (timer) { stop(); play(); }
  writeAddress();
};
zoomControls(() => show(index));
window.addEventListener("resize", () => { if (replay) show(index); });
$("show-overlay").onchange = () => show(index);

document.addEventListener("keydown", (ev) => {
  if (!replay || ev.target instanceof HTMLInputElement && ev.target.type !== "range") return;
  const jump = ev.shiftKey ? 10 : 1;
  if (ev.key === "ArrowRight") { stop(); show(index + jump); }
  else if (ev.key === "ArrowLeft") { stop(); show(index - jump); }
  else if (ev.key === "Home") { stop(); show(0); }
  else if (ev.key === "End") { stop(); show(replay.frames.length - 1); }
  else if (ev.key === " ") { play(); }
  else return;
  ev.preventDefault();
});

async function openPath(path) {
  clear();
  $("replay-name").textContent = path;
  try { await open(await api(`/api/replay?path=${encodeURIComponent(path)}`), { path }); }
  catch (err) { clear(); showError(`cannot open ${path}: ${err.message}`); }
  if (!replay) { const url = new URL(location.href); url.searchParams.set("path", path); history.replaceState(null, "", url); }
}

$("upload").onchange = async () => {
  const file = $("upload").files[0];
  if (!file) return;
  clear();
  try {
    const body = await file.arrayBuffer();
    await open(await api(`/api/replay?name=${encodeURIComponent(file.name)}`, { method: "POST", body }));
  } catch (err) { clear(); showError(`cannot open ${file.name}: ${err.message}`); }
};

async function init() {
  try {
    const data = await api("/api/replays");
    $("folder").textContent = data.exists ? `from ${data.folder}` : `the replay folder ${data.folder} does not exist`;
    const list = $("replay-list");
    for (const r of data.replays) {
      const li = document.createElement("li");
      li.textContent = r.path; li.title = `${r.size} bytes, ${r.modified}`;
      li.onclick = () => openPath(r.path);
      list.append(li);
    }
    if (!data.replays.length) list.innerHTML = '<li class="note">no replay files here; write some with --replay</li>';
  } catch (err) { showError(`cannot list replays: ${err.message}`); }
  const params = new URLSearchParams(location.search);
  const fps = params.get("fps");
  if (fps !== null) {
    const n = Number(fps);
    if (/^\d+(\.\d+)?$/.test(fps) && n >= 1 && n <= Number($("fps").max)) {
      $("fps").value = String(Math.round(n)); $("fps-label").textContent = $("fps").value;
    } else {
      showError(`the address asks for speed ${JSON.stringify(fps)}; speeds are 1 to ${$("fps").max} steps/s`);
    }
  }
  const path = params.get("path");
  if (path) await openPath(path);
  const step = params.get("step");
  if (replay && step !== null) {
    const last = replay.frames.length - 1;
    if (!/^\d+$/.test(step)) showError(`the address asks for step ${JSON.stringify(step)}, which is not a step number; showing step 0`);
    else if (Number(step) > last) { showError(`the address asks for step ${step}; this replay ends at step ${last}`); await show(last); }
    else await show(Number(step));
  }
  document.body.dataset.ready = "1";
}
init();
