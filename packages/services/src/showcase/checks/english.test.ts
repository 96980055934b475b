import { describe, expect, test } from "vitest";
import { detectEnglish, languageOfPart } from "./english";
import { ENGLISH_SAMPLES, OTHER_SAMPLES } from "./language-samples";

/** Measured on the labelled set below: the documented floor of the detector (README of this folder). */
const MIN_ACCURACY = 0.95;

describe("detectEnglish on a labelled set", () => {
  test(`at least ${MIN_ACCURACY * 100} % correct, and no English paragraph longer than 200 characters rejected`, () => {
    const englishOk = ENGLISH_SAMPLES.map((text) => ({ text, outcome: detectEnglish([text]).outcome }));
    const otherOk = OTHER_SAMPLES.map(([language, text]) => ({ language, text, result: detectEnglish([text]) }));
    const correct = englishOk.filter((s) => s.outcome === "english").length + otherOk.filter((s) => s.result.outcome === "not_english").length;
    const accuracy = correct / (ENGLISH_SAMPLES.length + OTHER_SAMPLES.length);
    expect(accuracy).toBeGreaterThanOrEqual(MIN_ACCURACY);
    expect(englishOk.filter((s) => s.text.length > 200 && s.outcome !== "english")).toEqual([]);
    expect(new Set(OTHER_SAMPLES.map(([language]) => language)).size).toBeGreaterThanOrEqual(8);
  });

  test("an article is judged on its prose as a whole: short English headings and list items do not fail it", () => {
    expect(detectEnglish(["Setup", "Run it", "npm start", ENGLISH_SAMPLES[0]!, ENGLISH_SAMPLES[1]!]).outcome).toBe("english");
  });

  test("a mostly Spanish article fails even with an English title", () => {
    const result = detectEnglish(["A short English title", ...OTHER_SAMPLES.filter(([l]) => l === "es").map(([, t]) => t)]);
    expect(result).toMatchObject({ outcome: "not_english", detected: "es" });
  });

  test("short texts are read together: an English glossary of terms ELD misreads one by one is English", () => {
    const glossary = ["Glossary", "Mutex: a lock", "Semaphore: a counter", "Latch: a one-shot gate", "Barrier: a rendezvous"];
    expect(detectEnglish(["Mutex: a lock"]).outcome).toBe("too_short_to_tell");
    expect(detectEnglish(glossary)).toMatchObject({ outcome: "english", detected: "en" });
  });

  test("readings that disagree are mixed, not a failure: a long odd title over an English paragraph", () => {
    const title = `${"Queue ".repeat(12)}abcd`;
    const paragraph = "This article explains how a small scheduler drains its queue and why the order of jobs matters to readers.";
    expect(detectEnglish([title, paragraph])).toMatchObject({ outcome: "mixed", detected: "fr" });
    expect(detectEnglish([paragraph])).toMatchObject({ outcome: "english" });
  });

  test("a few words are too short to tell, and never fail", () => {
    expect(detectEnglish(["Hola", "Danke"]).outcome).toBe("too_short_to_tell");
  });
});

describe("languageOfPart", () => {
  test.each([
    ["French prose is marked fr", "J'ai beaucoup aimé cet article sur les oiseaux du jardin, merci pour ces explications très claires.", "fr"],
    ["Spanish prose is marked es", "Me ha gustado mucho este artículo sobre los pájaros del jardín, gracias por la explicación tan clara.", "es"],
    ["English prose keeps the page's language", "I enjoyed this article about garden birds very much; thank you for the clear explanation.", null],
    ["a few words are too short to mark", "Merci beaucoup !", null],
  ])("%s", (_label, text, language) => {
    expect(languageOfPart(text)).toBe(language);
  });
});
