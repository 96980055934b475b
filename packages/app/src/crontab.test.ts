import { BOARD_CRONTAB, boardJobHandlers, OAUTH_SWEEP_TASK, OPERATOR_SESSION_SWEEP_TASK, QUORUM_SWEEP_TASK, UPLOAD_SWEEP_TASK, type ServiceDeps } from "@board/services";
import { parseCrontab } from "graphile-worker";
import { describe, expect, test } from "vitest";

/** How often graphile-worker's own parser fires each line of the board's crontab over one day. */
function firingsPerDay(): Map<string, number> {
  const counts = new Map<string, number>();
  const items = parseCrontab(BOARD_CRONTAB);
  for (let minute = 0; minute < 24 * 60; minute++) {
    const digest = { min: minute % 60, hour: Math.floor(minute / 60), date: 27, month: 11, dow: 5 };
    for (const item of items) if (item.match(digest)) counts.set(item.task, (counts.get(item.task) ?? 0) + 1);
  }
  return counts;
}

describe("the board's schedule", () => {
  test.each([
    [QUORUM_SWEEP_TASK, 144, "every 10 minutes: eligibility ripens with time"],
    [UPLOAD_SWEEP_TASK, 24, "hourly: sessions expire after 24 hours"],
    [OAUTH_SWEEP_TASK, 24, "hourly"],
    [OPERATOR_SESSION_SWEEP_TASK, 24, "hourly"],
  ])("%s runs %i times a day (%s)", (task, times) => {
    expect(firingsPerDay().get(task)).toBe(times);
  });

  test("every scheduled task has a handler, and nothing else is scheduled", () => {
    const scheduled = parseCrontab(BOARD_CRONTAB).map((item) => item.task);
    expect(scheduled.sort()).toEqual([QUORUM_SWEEP_TASK, UPLOAD_SWEEP_TASK, OAUTH_SWEEP_TASK, OPERATOR_SESSION_SWEEP_TASK].sort());
    const handlers = boardJobHandlers({} as ServiceDeps);
    for (const task of scheduled) expect([task, typeof handlers[task]]).toEqual([task, "function"]);
  });
});
