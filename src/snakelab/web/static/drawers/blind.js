// blind: the torus (drawn flat; the walk wraps at the edges), every cell shaded by the
// step it was first visited (light = early, dark = recent), the recent walk, the head
// and the apple. The state holds only the head, so the drawer reads the frames so far
// (view.history, view.index) and caches the first-visit table per history array.
import { drawApple, drawGrid, fitCanvas } from "/static/js/common.js";

export const needsHistory = true;
const cache = new WeakMap();

// First-visit step per cell for frames[0..index], extended incrementally.
function visits(state, view) {
  const frames = view.history || [];
  const W = state.width, H = state.height;
  let c = cache.get(frames);
  if (!c || c.W !== W || c.H !== H || c.upTo > (view.index ?? frames.length - 1)) {
    c = { W, H, first: new Int32Array(W * H).fill(-1), upTo: -1, count: 0 };
    cache.set(frames, c);
  }
  const last = Math.min(view.index ?? frames.length - 1, frames.length - 1);
  for (let i = c.upTo + 1; i <= last; i++) {
    const f = frames[i];
    if (!f || !f.state || !f.state.head) continue;
    const [x, y] = f.state.head;
    const k = y * W + x;
    if (c.first[k] < 0) { c.first[k] = f.step; c.count++; }
  }
  c.upTo = Math.max(c.upTo, last);
  return c;
}

export function draw(canvas, state, view = {}) {
  const W = state.width, H = state.height;
  const { ctx, cell } = fitCanvas(canvas, W, H);
  ctx.fillStyle = "#fbfaf7";
  ctx.fillRect(0, 0, W * cell, H * cell);
  const v = visits(state, view);
  const now = Math.max(1, state.steps);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const s = v.first[y * W + x];
      if (s < 0 || s > state.steps) continue;
      // Early visits pale, recent ones deep: the order of coverage at a glance.
      const t = s / now;
      ctx.fillStyle = `hsl(205, 60%, ${88 - 45 * t}%)`;
      ctx.fillRect(x * cell, y * cell, cell, cell);
    }
  }
  drawGrid(ctx, W, H, cell, "rgba(0,0,0,0.06)");
  // The recent walk, broken where it wraps round the torus.
  const frames = view.history || [];
  const end = Math.min(view.index ?? frames.length - 1, frames.length - 1);
  const start = Math.max(0, end - Math.max(W, H) * 4);
  ctx.save();
  ctx.strokeStyle = "rgba(213, 94, 0, 0.8)"; ctx.lineWidth = Math.max(1, cell * 0.15);
  ctx.lineCap = "round"; ctx.lineJoin = "round";
  ctx.beginPath();
  let prev = null;
  for (let i = start; i <= end; i++) {
    const f = frames[i];
    if (!f || !f.state || !f.state.head) continue;
    const [x, y] = f.state.head;
    const px = (x + 0.5) * cell, py = (y + 0.5) * cell;
    if (!prev || Math.abs(x - prev[0]) + Math.abs(y - prev[1]) !== 1) ctx.moveTo(px, py); else ctx.lineTo(px, py);
    prev = [x, y];
  }
  ctx.stroke();
  ctx.restore();
  if (state.apple) drawApple(ctx, state.apple[0], state.apple[1], cell);
  const [hx, hy] = state.head;
  ctx.fillStyle = state.termination === "FOUND" ? "#2f7d4f" : "#1f2a24";
  ctx.beginPath(); ctx.arc((hx + 0.5) * cell, (hy + 0.5) * cell, cell * 0.38, 0, Math.PI * 2); ctx.fill();
}

export function summary(state, frame, view = {}) {
  const area = state.width * state.height;
  const v = visits(state, view);
  return [
    ["torus", `${state.width}×${state.height} (area ${area})`],
    ["steps", state.steps],
    ["visited", `${v.count} / ${area}`],
    ["steps / area", (state.steps / area).toFixed(2)],
    ["ended", state.termination],
  ];
}
