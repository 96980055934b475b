/**
 * `pnpm reliability`: the slow figures of issue 19, one process each (each prints its figure and
 * its own `N passed, N failed`), then one closing line for all of them. Under 10 minutes together.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";

const FIGURES = ["crash.ts", "database-restart.ts", "slow-clients.ts"];

let passed = 0;
let failed = 0;
for (const figure of FIGURES) {
  console.log(`--- ${figure}`);
  const started = Date.now();
  const run = spawnSync(process.execPath, ["--import", "tsx", path.join(import.meta.dirname, figure)], { stdio: "inherit", timeout: 5 * 60_000 });
  const ok = run.status === 0;
  console.log(`--- ${figure}: ${ok ? "passed" : `FAILED (exit ${run.status ?? run.signal})`} in ${Math.round((Date.now() - started) / 1000)} s`);
  if (ok) passed++;
  else failed++;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
