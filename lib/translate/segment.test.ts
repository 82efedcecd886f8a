import { describe, expect, test } from "vitest";
import { codePointLength } from "@/lib/kit/text";
import { joinSegments, mapWithConcurrency, splitForLimit } from "./segment";

/** Every property a split must have, whatever the text: it rebuilds the original, and every chunk fits and is trimmed. */
function checkSplit(text: string, limit: number) {
  const { chunks, separators } = splitForLimit(text, limit);
  expect(joinSegments(separators, chunks)).toBe(text);
  expect(separators).toHaveLength(chunks.length + 1);
  for (const sep of separators) expect(sep).toMatch(/^\s*$/);
  // Every cut (chunk start and end) is a grapheme boundary of the original.
  const boundaries = new Set([
    0,
    ...[...new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(text)].map((g) => g.index + g.segment.length),
  ]);
  let offset = 0;
  for (let i = 0; i < chunks.length; i++) {
    offset += separators[i].length;
    expect(boundaries.has(offset) && boundaries.has(offset + chunks[i].length), `cut inside a grapheme at ${offset}`).toBe(true);
    offset += chunks[i].length;
  }
  for (const chunk of chunks) {
    expect(codePointLength(chunk)).toBeLessThanOrEqual(limit);
    expect(chunk).toMatch(/^\S[\s\S]*$/);
    expect(chunk).toMatch(/\S$/);
  }
  return { chunks, separators };
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const graphemes = (s: string) => [...new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(s)].map((g) => g.segment);

/** ~4,800 characters of English in paragraphs of varied length. */
function englishText(): string {
  const sentences = [
    "The market opens early on Saturdays, before the sun is fully up.",
    "Traders arrive with baskets of tomatoes, peppers and fresh fish from the coast.",
    "Children help their parents set up the stalls and count the change.",
    "By nine o'clock the lanes are crowded and the noise is cheerful and loud!",
    "Is there anything better than a cup of hot tea at the corner stall?",
    "Prices are agreed after a little friendly bargaining, as they always have been.",
  ];
  const paragraphs: string[] = [];
  let i = 0;
  while (paragraphs.join("\n\n").length < 4_700) {
    const n = 2 + (i % 5);
    paragraphs.push(Array.from({ length: n }, (_, k) => sentences[(i + k) % sentences.length]).join(" "));
    i++;
  }
  return paragraphs.join("\n\n");
}

describe("splitForLimit", () => {
  test("a 4,800-character English text with paragraphs at limit 1,000: at least 5 chunks that rebuild it exactly", () => {
    const text = `${englishText()}\n`;
    expect(text.length).toBeGreaterThanOrEqual(4_700);
    const { chunks, separators } = checkSplit(text, 1_000);
    expect(chunks.length).toBeGreaterThanOrEqual(5);
    // Cuts fall at sentence ends, never inside a sentence.
    for (const chunk of chunks) expect(chunk).toMatch(/[.!?]$/);
    // Paragraph breaks stay in the separators, whole.
    for (const sep of separators.slice(1, -1)) expect([" ", "\n\n"]).toContain(sep);
    expect(separators.at(-1)).toBe("\n");
  });

  test("a full chunk closes at its last paragraph break rather than mid-paragraph", () => {
    const para = (n: number) => Array.from({ length: n }, (_, i) => `Sentence ${i} is here.`).join(" ");
    const text = `${para(2)}\n\n${para(4)}`; // 43 + 2 + 87 code points
    const { chunks, separators } = checkSplit(text, 100);
    expect(chunks).toEqual([para(2), para(4)]);
    expect(separators).toEqual(["", "\n\n", ""]);
  });

  test("text that fits is one chunk; leading and trailing whitespace are separators", () => {
    expect(splitForLimit("  Hello. World.\n", 100)).toEqual({ chunks: ["Hello. World."], separators: ["  ", "\n"] });
    expect(splitForLimit(" \n ", 10)).toEqual({ chunks: [], separators: [" \n "] });
    expect(splitForLimit("", 10)).toEqual({ chunks: [], separators: [""] });
  });

  test("Ethiopic ። and Arabic ؟ end sentences (Node's ICU)", () => {
    const amharic = "ሰላም ነህ። እንዴት ነህ? ደህና ነኝ። አመሰግናለሁ።";
    expect(checkSplit(amharic, 12).chunks).toEqual(["ሰላም ነህ።", "እንዴት ነህ?", "ደህና ነኝ።", "አመሰግናለሁ።"]);
    const arabic = "مرحبا بك. كيف حالك؟ أنا بخير!";
    expect(checkSplit(arabic, 12).chunks).toEqual(["مرحبا بك.", "كيف حالك؟", "أنا بخير!"]);
    const twi = "Ɔkɔɔ fie. Ɛyɛ papa. Meda wo ase.";
    expect(checkSplit(twi, 20).chunks).toEqual(["Ɔkɔɔ fie. Ɛyɛ papa.", "Meda wo ase."]);
  });

  test("a sentence longer than the limit is cut at the last whitespace within it", () => {
    const text = "one two three four five six seven eight nine ten";
    const { chunks, separators } = checkSplit(text, 15);
    expect(chunks).toEqual(["one two three", "four five six", "seven eight", "nine ten"]);
    expect(separators).toEqual(["", " ", " ", " ", ""]);
    // A run of spaces at a cut is kept whole as the separator.
    expect(checkSplit("aaaa bbbb   cccc dddd", 10).separators).toEqual(["", "   ", ""]);
  });

  test("a period after an abbreviation or an initial does not end a sentence; a decimal point never does", () => {
    const text = "Dr. Okello paid 3.5 million shillings. Bw. Juma and J. Kato came, e.g. Mulago staff. They left.";
    // With room for one sentence at a time, each cut is a real sentence end.
    expect(checkSplit(text, 50).chunks).toEqual([
      "Dr. Okello paid 3.5 million shillings.",
      "Bw. Juma and J. Kato came, e.g. Mulago staff.",
      "They left.",
    ]);
    // "etc." and a time end sentences as often as not: they stay cut points.
    expect(checkSplit("We sell rice, beans etc. Come at 10 a.m. Bring cash.", 24).chunks).toEqual([
      "We sell rice, beans etc.",
      "Come at 10 a.m.",
      "Bring cash.",
    ]);
  });

  test("a sentence too long to keep whole is cut after a comma, semicolon or colon when that keeps half the piece", () => {
    const text = "when the rains come early, the farmers plant maize and beans in every field they have";
    expect(checkSplit(text, 40).chunks).toEqual(["when the rains come early,", "the farmers plant maize and beans in", "every field they have"]);
  });

  test("no-break spaces are not cut at", () => {
    // The last whitespace within 10 code points is the no-break space inside the number; the cut goes before it.
    expect(checkSplit("Pay 100\u00a0000", 10).chunks).toEqual(["Pay", "100\u00a0000"]);
  });

  test("a text with no spaces is hard-split at the limit, and rebuilt without inventing spaces", () => {
    const text = "x".repeat(2_500);
    const { chunks, separators } = checkSplit(text, 1_000);
    expect(chunks.map((c) => c.length)).toEqual([1_000, 1_000, 500]);
    expect(separators).toEqual(["", "", "", ""]);
  });

  test("hostile Unicode: ZWJ emoji, combining marks and surrogate pairs are never cut; the limit counts code points", () => {
    const family = "👨‍👩‍👧‍👦"; // 7 code points, 11 UTF-16 units, one grapheme
    const accented = "e\u0301\u0323"; // 3 code points, one grapheme
    const math = "𝔸"; // a surrogate pair: 1 code point
    const text = (family + accented + math).repeat(20);
    for (const limit of [7, 8, 11, 12, 30]) {
      const { chunks } = checkSplit(text, limit);
      for (const chunk of chunks) {
        // Every chunk is whole graphemes of the original: nothing cut in half, no lone surrogate.
        expect(
          graphemes(chunk).every((g) => [family, accented, math].includes(g)),
          `limit ${limit}: ${chunk}`,
        ).toBe(true);
        expect(chunk).not.toMatch(LONE_SURROGATE);
      }
    }
    // 𝔸 counts as one: 10 of them fit a limit of 10 code points (20 UTF-16 units).
    expect(splitForLimit(math.repeat(10), 10).chunks).toEqual([math.repeat(10)]);
  });

  test("mixed random texts at many limits keep every property (seeded, reproducible)", () => {
    const atoms = [
      "Hello",
      "Ɛyɛ",
      "ሰላም",
      "።",
      ".",
      "?",
      " ",
      "  ",
      "\n",
      "\n\n",
      "\t",
      "👨‍👩‍👧‍👦",
      "e\u0301",
      "𝔸",
      "مرحبا",
      "\u00a0",
      "wordwithoutanyspaces",
    ];
    let seed = 42;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (let round = 0; round < 200; round++) {
      const text = Array.from({ length: 5 + Math.floor(random() * 120) }, () => atoms[Math.floor(random() * atoms.length)]).join("");
      const limit = 7 + Math.floor(random() * 60);
      for (const chunk of checkSplit(text, limit).chunks) expect(chunk).not.toMatch(LONE_SURROGATE);
    }
  });

  test("a predicate limit: bytes instead of code points", () => {
    const fitsBytes = (chunk: string) => Buffer.byteLength(chunk) <= 40;
    const text = "ሰላም ነህ። እንዴት ነህ? ደህና ነኝ። አመሰግናለሁ።";
    const { chunks, separators } = splitForLimit(text, fitsBytes);
    expect(joinSegments(separators, chunks)).toBe(text);
    for (const chunk of chunks) expect(Buffer.byteLength(chunk)).toBeLessThanOrEqual(40);
    expect(chunks.length).toBeGreaterThan(1);
  });

  test("translated chunks join with the original layout", () => {
    const text = "  First one. Second one.\n\nThird one.\n";
    const { chunks, separators } = splitForLimit(text, 12);
    const translated = chunks.map((c) => c.toUpperCase());
    expect(joinSegments(separators, translated)).toBe("  FIRST ONE. SECOND ONE.\n\nTHIRD ONE.\n");
    expect(() => joinSegments(separators, translated.slice(1))).toThrow(RangeError);
  });

  test("a limit that is not a positive integer is refused", () => {
    expect(() => splitForLimit("a", 0)).toThrow(RangeError);
    expect(() => splitForLimit("a", 1.5)).toThrow(RangeError);
  });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("mapWithConcurrency", () => {
  test("results in input order, never more than `limit` in flight", async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const results = await mapWithConcurrency([50, 10, 30, 5, 20, 1, 15], 3, async (ms, i) => {
      maxInFlight = Math.max(maxInFlight, ++inFlight);
      await sleep(ms);
      inFlight--;
      return `${i}:${ms}`;
    });
    expect(results).toEqual(["0:50", "1:10", "2:30", "3:5", "4:20", "5:1", "6:15"]);
    expect(maxInFlight).toBe(3);
  });

  test("the first failure rejects at once, aborts the calls in flight and starts no more", async () => {
    const started: number[] = [];
    const aborted: number[] = [];
    const failure = new Error("chunk 1 failed");
    const t0 = Date.now();
    const outcome = mapWithConcurrency([0, 1, 2, 3, 4, 5], 2, async (_, i, signal) => {
      started.push(i);
      signal.addEventListener("abort", () => aborted.push(i));
      if (i === 1) {
        await sleep(10);
        throw failure;
      }
      await sleep(i === 0 ? 1_000 : 5); // item 0 ignores its signal
      return i;
    });
    await expect(outcome).rejects.toBe(failure);
    expect(Date.now() - t0).toBeLessThan(500);
    expect(started).toEqual([0, 1]);
    expect(aborted).toContain(0); // the call still in flight is told to stop
  });

  test("the deadline stops the work with a TimeoutError", async () => {
    const outcome = mapWithConcurrency([1, 2, 3], 1, () => sleep(200), { deadline: Date.now() + 50 });
    await expect(outcome).rejects.toMatchObject({ name: "TimeoutError" });
    await expect(mapWithConcurrency([1], 1, async () => 1, { deadline: Date.now() - 1 })).rejects.toMatchObject({ name: "TimeoutError" });
  });

  test("the caller's signal stops the work with its reason", async () => {
    const controller = new AbortController();
    const outcome = mapWithConcurrency([1, 2, 3], 2, () => sleep(200), { signal: controller.signal });
    controller.abort(new Error("client left"));
    await expect(outcome).rejects.toThrow("client left");
  });

  test("an empty list resolves to an empty list", async () => {
    expect(await mapWithConcurrency([], 4, async () => 1)).toEqual([]);
  });
});
