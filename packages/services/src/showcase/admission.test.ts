import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { threadedContentWorker } from "./admission";

/** The nice value of each thread of this process, by thread id (Linux's /proc). */
function threadNiceValues(): Map<number, number> {
  const values = new Map<number, number>();
  for (const id of readdirSync("/proc/self/task")) {
    const stat = readFileSync(`/proc/self/task/${id}/stat`, "utf8");
    // Fields after the command name's closing parenthesis: state is the first, nice the 17th.
    values.set(Number(id), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]));
  }
  return values;
}

describe.runIf(process.platform === "linux")("content worker threads give way to the event loop", () => {
  test("at niceness 7 a content thread runs at nice 7 and the event loop's thread stays at 0", async () => {
    const before = threadNiceValues();
    const worker = threadedContentWorker(1, 7);
    try {
      expect(await worker.detectLanguage(["The scheduler drains its queue every minute and never loses a job."])).toMatchObject({ outcome: "english" });
      const added = [...threadNiceValues()].filter(([id]) => !before.has(id));
      expect(added.map(([, nice]) => nice)).toContain(7);
      expect(threadNiceValues().get(process.pid)).toBe(0);
    } finally {
      await worker.close();
    }
  });

  test("at niceness 0 the content threads keep the process's nice value", async () => {
    const before = threadNiceValues();
    const worker = threadedContentWorker(1, 0);
    try {
      await worker.detectLanguage(["The scheduler drains its queue every minute and never loses a job."]);
      const added = [...threadNiceValues()].filter(([id]) => !before.has(id));
      expect(added.length).toBeGreaterThan(0);
      expect(added.every(([, nice]) => nice === 0)).toBe(true);
    } finally {
      await worker.close();
    }
  });
});
