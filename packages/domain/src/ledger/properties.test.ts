import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { REPUTATION_CAP, maturePeerReputation, type ReceivedVote } from "./reputation";
import { decideVote } from "./vote-decision";
import { voteWeight } from "./weight";

const NOW = new Date("2026-03-10T12:00:00Z");

describe("properties", () => {
  test("voteWeight is an integer in 1..5; karma <= 0 gives 1; monotone in age and reputation", () => {
    const input = fc.record({
      accountAgeSeconds: fc.integer({ min: -1e6, max: 1e9 }),
      maturePeerReputation: fc.integer({ min: -40, max: 40 }),
      weightedKarma: fc.integer({ min: -1e6, max: 1e6 }),
    });
    fc.assert(
      fc.property(input, fc.nat(1e8), fc.nat(40), (i, dAge, dRep) => {
        const w = voteWeight(i);
        expect(Number.isInteger(w) && w >= 1 && w <= 5).toBe(true);
        if (i.weightedKarma <= 0) expect(w).toBe(1);
        const older = voteWeight({ ...i, accountAgeSeconds: i.accountAgeSeconds + dAge, maturePeerReputation: i.maturePeerReputation + dRep });
        expect(older).toBeGreaterThanOrEqual(w);
      }),
    );
  });

  test("reputation is an integer within the cap and independent of vote order", () => {
    const vote = fc.record({
      voterId: fc.constantFrom("a", "b", "c", "d", "e"),
      value: fc.constantFrom<1 | -1>(1, -1),
      castAt: fc.integer({ min: -30 * 86_400, max: 0 }).map((s) => new Date(NOW.getTime() + s * 1000)),
      voterCreatedAt: fc.integer({ min: -60 * 86_400, max: 0 }).map((s) => new Date(NOW.getTime() + s * 1000)),
      voterActive: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(vote, { maxLength: 60 }), (votes: ReceivedVote[]) => {
        const r = maturePeerReputation(votes, NOW);
        expect(Number.isInteger(r)).toBe(true);
        expect(Math.abs(r)).toBeLessThanOrEqual(Math.min(REPUTATION_CAP, 5)); // 5 distinct peers, +/-1 each
        expect(maturePeerReputation([...votes].reverse(), NOW)).toBe(r);
      }),
    );
  });

  test("an existing same-sign vote always replays with its stored weight", () => {
    fc.assert(
      fc.property(
        fc.constantFrom<1 | -1>(1, -1),
        fc.integer({ min: 1, max: 5 }),
        fc.boolean(),
        fc.boolean(),
        fc.nat(100),
        (value, weight, isSelfVote, votingSuspended, newVotesToday) => {
          const d = decideVote({ existing: { value, weight }, requested: value, isSelfVote, votingSuspended, newVotesToday, weightIfNew: 5 });
          expect(d).toEqual({ kind: "replay", value, weight });
        },
      ),
    );
  });
});
