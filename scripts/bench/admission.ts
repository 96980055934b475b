/**
 * CPU time of SVG admission for one picture of the largest article, against a bare saxes parse of
 * the same text (the least any admission must do) in the same process. Run by `pnpm bench` in a
 * process of its own, so no other case's garbage or compiled code is counted; prints JSON.
 */
import { createRequire } from "node:module";
import path from "node:path";
import { admitSvg, SVG_BUDGETS } from "../../packages/svg-runtime/src/index";
import { repoRoot } from "../../packages/db/src/prisma-cli";
import { largestPicture } from "./articles";

export interface AdmissionFigures {
  admissionMs: number;
  parseMs: number;
}

interface BareParser {
  write(text: string): { close(): unknown };
}

// saxes is svg-runtime's dependency, not the workspace root's.
const { SaxesParser } = createRequire(path.join(repoRoot, "packages/svg-runtime/package.json"))("saxes") as {
  SaxesParser: new (options: { xmlns: boolean; position: boolean }) => BareParser;
};

const picture = largestPicture("1");
const ROUNDS = 40;

/** CPU time (user + system, every thread: the collector's helpers too) per call, after a warm-up. */
function cpuPerCall(work: () => void): number {
  for (let i = 0; i < 10; i++) work();
  const before = process.cpuUsage();
  for (let i = 0; i < ROUNDS; i++) work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / ROUNDS;
}

const parseMs = cpuPerCall(() => {
  new SaxesParser({ xmlns: true, position: true }).write(picture).close();
});
const admissionMs = cpuPerCall(() => {
  if (!admitSvg(picture, { maxBytes: SVG_BUDGETS.articleSourceBytes }).ok) throw new Error("the benchmark's picture was refused");
});
console.log(JSON.stringify({ admissionMs, parseMs } satisfies AdmissionFigures));
