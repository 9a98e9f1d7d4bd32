// hextris: pointy-top hex cells (odd rows shifted half a cell right), filled cells,
// the current unit and its pivot (from frame.view, worked out on the server), and the
// move and power scores with the phrases of power spelled so far.
import { fitCanvas } from "/static/js/common.js";

const SQ3 = Math.sqrt(3);

function hexPath(ctx, cx, cy, r) {
  ctx.beginPath();
  for (let i = 0; i < 6; i++) {
    const a = Math.PI / 180 * (60 * i - 90);
    const x = cx + r * Math.cos(a), y = cy + r * Math.sin(a);
    if (i === 0) ctx.moveTo(x, y); else ctx.lineTo(x, y);
  }
  ctx.closePath();
}

export function draw(canvas, state, view = {}) {
  const rows = state.board;
  const H = rows.length, W = H ? rows[0].length : 0;
  const { ctx, cell: r } = fitCanvas(canvas, (W + 0.5) * SQ3, 1.5 * H + 0.5);
  const centre = (x, y) => [(x + 0.5 + (y & 1 ? 0.5 : 0)) * SQ3 * r, r + 1.5 * r * y];
  const extra = (view.frame && view.frame.view) || {};
  const unit = new Set((extra.unit || []).map(([x, y]) => `${x},${y}`));
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const [cx, cy] = centre(x, y);
      hexPath(ctx, cx, cy, r * 0.96);
      const full = rows[y][x] === "#";
      ctx.fillStyle = unit.has(`${x},${y}`) ? (full ? "#b3261e" : "#E69F00") : full ? "#3d4a5c" : "#f1efe9";
      ctx.fill();
      ctx.strokeStyle = "#d8d4ca"; ctx.lineWidth = 1; ctx.stroke();
    }
  }
  if (extra.pivot) {
    const [cx, cy] = centre(extra.pivot[0], extra.pivot[1]);
    ctx.fillStyle = "#1f2a24";
    ctx.beginPath(); ctx.arc(cx, cy, Math.max(2, r * 0.22), 0, Math.PI * 2); ctx.fill();
    ctx.strokeStyle = "#fff"; ctx.lineWidth = Math.max(1, r * 0.06); ctx.stroke();
  }
}

export function summary(state, frame) {
  const extra = (frame && frame.view) || {};
  const phrases = Object.entries(extra.phrases || {}).map(([p, n]) => `“${p}” ×${n}`).join(", ");
  const power = extra.power_score ?? null;
  const cmds = state.commands || "";
  return [
    ["problem", `${state.problem} (seed ${state.seed})`],
    ["board", `${state.board[0] ? state.board[0].length : 0}×${state.board.length}`],
    ["unit", `${state.index + (state.termination ? 0 : 1)} / ${extra.units_total ?? "?"}`],
    ["move score", state.move_score],
    ["power score", power],
    ["total", power === null ? null : state.move_score + power],
    ["phrases", phrases || "none yet"],
    ["commands", cmds.length > 40 ? `…${cmds.slice(-40)}` : cmds || "–"],
    ["ended", state.termination],
  ];
}

// One key per command; the action sent is the command's canonical character.
export const keys = {
  a: "p", ArrowLeft: "p",      // W
  d: "b", ArrowRight: "b",     // E
  z: "a",                      // SW
  x: "l", ArrowDown: "l",      // SE
  e: "d",                      // CW
  q: "k",                      // CCW
};
