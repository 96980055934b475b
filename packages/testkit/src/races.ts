import type { Database, Tx } from "@board/db";

/**
 * Stages a race deterministically: another transaction does `hold` (a lock, an uncommitted
 * withdrawal or restriction) and stays open while `send` starts; after `waitMs` the holder does
 * `then`, if given, and commits. Returns the send's answer and how the holder ended (PostgreSQL
 * may roll it back, as in a deadlock).
 */
export async function sendWhileHeld<T>(
  db: Pick<Database, "prisma">,
  hold: (tx: Tx) => Promise<unknown>,
  send: () => Promise<T>,
  options: { waitMs?: number; then?: (tx: Tx) => Promise<unknown> } = {},
): Promise<{ answer: T; holder: PromiseSettledResult<void> }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let holding!: () => void;
  const held = new Promise<void>((resolve) => (holding = resolve));
  const holder = db.prisma.$transaction(
    async (tx) => {
      await hold(tx);
      holding();
      await released;
      await options.then?.(tx);
    },
    { timeout: 20_000 },
  );
  await Promise.race([held, holder]);
  const sending = send();
  await new Promise((resolve) => setTimeout(resolve, options.waitMs ?? 300));
  release();
  const [settled] = await Promise.allSettled([holder]);
  return { answer: await sending, holder: settled };
}
