// arena (snAIke): obstacles, zombies, apples and four snakes, one colour each, with a
// scoreboard of length, longest length and kills in the state panel.
import { PLAYER_COLOURS, drawApple, drawGrid, drawSnake, fitCanvas } from "/static/js/common.js";

export function draw(canvas, state) {
  const W = state.width, H = state.height;
  const { ctx, cell } = fitCanvas(canvas, W, H);
  ctx.fillStyle = "#fbfaf7";
  ctx.fillRect(0, 0, W * cell, H * cell);
  drawGrid(ctx, W, H, cell);
  ctx.fillStyle = "#3d4a5c";
  for (const ob of state.obstacles || []) for (const [x, y] of ob) ctx.fillRect(x * cell, y * cell, cell, cell);
  for (const apple of state.apples || []) if (apple) drawApple(ctx, apple[0], apple[1], cell);
  for (const z of state.zombies || []) drawSnake(ctx, z, cell, "#7a8a6a", { headColour: "#3f4a35", width: 0.5 });
  (state.snakes || []).forEach((s, i) => {
    if (!s.alive || !s.body.length) return;
    drawSnake(ctx, s.body, cell, PLAYER_COLOURS[i % PLAYER_COLOURS.length]);
  });
}

export function summary(state) {
  const snakes = state.snakes || [];
  const rows = [
    ["step", state.steps],
    ["alive", `${snakes.filter((s) => s.alive).length} / ${snakes.length}`],
  ];
  snakes.forEach((s, i) => {
    const status = !s.running ? "out" : s.alive ? `length ${s.body.length}` : `dead (respawn at ${s.respawn_at})`;
    rows.push([`● p${i}`, `${status} · longest ${s.longest} · kills ${s.kills} · deaths ${s.deaths}`, PLAYER_COLOURS[i % PLAYER_COLOURS.length]]);
  });
  rows.push(["zombies", (state.zombies || []).length]);
  rows.push(["ended", state.termination]);
  return rows;
}

// Absolute moves: 0 up, 1 down, 2 left, 3 right.
export const keys = {
  ArrowUp: 0, ArrowDown: 1, ArrowLeft: 2, ArrowRight: 3,
  w: 0, s: 1, a: 2, d: 3,
};

// Moves by name, for the replay's action list (the protocol sends integers).
const MOVE_NAMES = ["up", "down", "left", "right", "turn left", "straight", "turn right", "timeout (straight)"];
export function actionName(action) {
  return Number.isInteger(action) && MOVE_NAMES[action] ? MOVE_NAMES[action] : undefined;
}
