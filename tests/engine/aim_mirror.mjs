// Runs the browser's aim preview (static/game/js/aim.js) on the cases given as JSON on stdin,
// {table, cases: [{balls, strike}]}, and prints the previews as JSON: tests/engine/test_aim_preview.py
// compares them with the engine's (game/engine/physics/aim.py).
import { aimPreview } from "../../static/game/js/aim.js";

let text = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => (text += chunk));
process.stdin.on("end", () => {
  const { table, cases } = JSON.parse(text);
  const out = cases.map(({ balls, strike }) => aimPreview(table, balls, strike));
  process.stdout.write(JSON.stringify(out));
});
