// snakgame: the blocked grid, your snakes (blue) and Chef's (orange), the ends of both
// current snakes, Chef's last cell, and your score Σ(L−1)·⌊√L⌋ over your snakes.
// Cells are 1-based (x, y) = (row, column) in the state; the grid is drawn row by row.
import { PLAYER_COLOURS, fitCanvas } from "/static/js/common.js";

const FILL = { "#": "#3d4a5c", o: "#7fb3d9", x: "#f0b27a" };

export function snakeScore(L) { return L > 1 ? (L - 1) * Math.floor(Math.sqrt(L)) : 0; }

export function score(state) {
  const lengths = [...(state.done || []), state.length || 0];
  return lengths.reduce((s, L) => s + snakeScore(L), 0);
}

function mark(ctx, xy, cell, colour, big) {
  if (!xy) return;
  const [row, col] = xy;
  ctx.fillStyle = colour;
  ctx.beginPath();
  ctx.arc((col - 0.5) * cell, (row - 0.5) * cell, Math.max(1.5, cell * (big ? 0.45 : 0.3)), 0, Math.PI * 2);
  ctx.fill();
}

export function draw(canvas, state) {
  const n = state.rows, m = state.cols;
  const { ctx, cell } = fitCanvas(canvas, m, n);
  ctx.fillStyle = "#fbfaf7";
  ctx.fillRect(0, 0, m * cell, n * cell);
  const gap = cell >= 8 ? 1 : 0;
  for (let r = 0; r < n; r++) {
    const line = state.grid[r];
    for (let c = 0; c < m; c++) {
      const fill = FILL[line[c]];
      if (!fill) continue;
      ctx.fillStyle = fill;
      ctx.fillRect(c * cell + gap / 2, r * cell + gap / 2, cell - gap, cell - gap);
    }
  }
  if (state.last_chef_cell) {
    const [row, col] = state.last_chef_cell;
    ctx.strokeStyle = "#b3261e"; ctx.lineWidth = Math.max(1, cell * 0.12);
    ctx.strokeRect((col - 1) * cell + 1, (row - 1) * cell + 1, cell - 2, cell - 2);
  }
  mark(ctx, state.tail, cell, PLAYER_COLOURS[0], false);
  mark(ctx, state.head, cell, PLAYER_COLOURS[0], true);
  mark(ctx, state.chef_tail, cell, PLAYER_COLOURS[1], false);
  mark(ctx, state.chef_head, cell, PLAYER_COLOURS[1], true);
}

export function summary(state) {
  const chefCells = state.grid.reduce((s, row) => s + (row.match(/x/g) || []).length, 0);
  const mine = state.grid.reduce((s, row) => s + (row.match(/o/g) || []).length, 0);
  const free = state.grid.reduce((s, row) => s + (row.match(/\./g) || []).length, 0);
  return [
    ["grid", `${state.rows}×${state.cols}`],
    ["your score", score(state)],
    ["your snakes", `${(state.done || []).length + (state.length ? 1 : 0)} (current length ${state.length})`],
    ["your cells", mine],
    ["Chef's cells", `${chefCells} in ${state.chef_snakes} snake(s)`],
    ["Chef's last move", state.last_chef],
    ["free cells", free],
    ["steps", state.steps],
    ["ended", state.termination],
  ];
}
