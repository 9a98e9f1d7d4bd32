// Fallback drawer for a game without its own: the state's scalar fields as text.
import { fitCanvas } from "/static/js/common.js";

export function draw(canvas, state) {
  const { ctx, w } = fitCanvas(canvas, 40, 12, { maxWidth: 480, maxHeight: 200 });
  ctx.fillStyle = "#6b6b6b";
  ctx.font = "14px system-ui, sans-serif";
  ctx.fillText("No drawer for this game yet: the state's fields are listed alongside.", 10, 24, w - 20);
  void state;
}

export function summary(state) {
  return Object.entries(state || {})
    .filter(([, v]) => v === null || typeof v !== "object")
    .map(([k, v]) => [k, v]);
}
