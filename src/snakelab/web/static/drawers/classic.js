// classic: a walled board, one snake drawn as a joined body, one apple, and
// optionally the Hamiltonian cycle its agent follows (view.overlay.cycle).
import { drawApple, drawGrid, drawSnake, fitCanvas } from "/static/js/common.js";

export function draw(canvas, state, view = {}) {
  const W = state.width, H = state.height;
  const { ctx, cell } = fitCanvas(canvas, W, H);
  ctx.fillStyle = "#fbfaf7";
  ctx.fillRect(0, 0, W * cell, H * cell);
  drawGrid(ctx, W, H, cell);
  const cycle = view.overlay && view.overlay.cycle;
  if (cycle && view.showOverlay) {
    ctx.save();
    ctx.strokeStyle = "rgba(80, 110, 200, 0.35)";
    ctx.lineWidth = Math.max(1, cell * 0.08);
    ctx.beginPath();
    cycle.forEach(([x, y], i) => {
      const px = (x + 0.5) * cell, py = (y + 0.5) * cell;
      if (i === 0) ctx.moveTo(px, py); else ctx.lineTo(px, py);
    });
    ctx.closePath();
    ctx.stroke();
    ctx.restore();
  }
  if (state.apple) drawApple(ctx, state.apple[0], state.apple[1], cell);
  const dead = state.termination && state.termination !== "WON";
  drawSnake(ctx, state.body, cell, dead ? "#8a8a8a" : "#2f7d4f", { headColour: dead ? "#b3261e" : "#1d5234" });
}

export function summary(state) {
  const cells = state.width * state.height;
  return [
    ["board", `${state.width}×${state.height}`],
    ["length", `${state.body.length} / ${cells}`],
    ["apples", state.apples],
    ["steps", state.steps],
    ["since apple", state.since_apple],
    ["heading", state.heading],
    ["ended", state.termination],
  ];
}

export const keys = {
  ArrowUp: "UP", ArrowDown: "DOWN", ArrowLeft: "LEFT", ArrowRight: "RIGHT",
  w: "UP", s: "DOWN", a: "LEFT", d: "RIGHT",
};
export const hasOverlay = true;
