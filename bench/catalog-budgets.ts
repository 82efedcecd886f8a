import { type CatalogFormat, parseCatalog, targetEntries } from "@/lib/catalog";

/**
 * How long one catalog parse can hold the event loop when its input is as hostile as the budgets of lib/catalog allow
 * (docs/security.md, "Budgets on caller input"): for each shape, the largest input that is still accepted, parsed in
 * this process, with the time (median of five, after one warm-up) and the rise in resident memory. Also the largest
 * ordinary file of each format that fits the request body (4 MB), for comparison: that is the cost of the format, not
 * of an attack.
 *
 *   npx tsx --expose-gc bench/catalog-budgets.ts
 */

const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});

function measure(format: CatalogFormat, content: string, target?: string): { ms: number; mb: number; outcome: string } {
  const run = () => {
    const catalog = parseCatalog(format, content);
    if (target) targetEntries(catalog, target);
  };
  let outcome = "accepted";
  try {
    run();
  } catch (e) {
    outcome = `refused: ${(e as Error).message}`;
  }
  const times: number[] = [];
  let mb = 0;
  for (let i = 0; i < 5; i++) {
    gc();
    const before = process.memoryUsage().rss;
    const started = performance.now();
    try {
      run();
    } catch {}
    times.push(performance.now() - started);
    mb = Math.max(mb, (process.memoryUsage().rss - before) / 1e6);
  }
  times.sort((a, b) => a - b);
  return { ms: Math.round(times[2]), mb: Math.round(mb), outcome };
}

const table = (columns: number, rows: number) =>
  `${"| h ".repeat(columns)}|\n${"|---".repeat(columns)}|\n${`${"| cell ".repeat(columns)}|\n`.repeat(rows)}`;
const value = "Open the settings for the item and then press the button to continue. ".repeat(10);

const CASES: [string, CatalogFormat, string, string?][] = [
  ["markdown: 64 columns × 29 rows (1,984 cells)", "markdown", table(64, 29)],
  ["markdown: 10 columns × 198 rows (2,000 cells)", "markdown", table(10, 198)],
  ["markdown: one paragraph of 200 `_a**b` marks", "markdown", "_a**b ".repeat(100)],
  ["markdown: 25 paragraphs of 200 marks (5,000)", "markdown", Array.from({ length: 25 }, () => "_a**b ".repeat(100)).join("\n\n")],
  ["markdown: 128 KiB of prose", "markdown", `${value}\n\n`.repeat(Math.floor((128 * 1024) / (value.length + 2)))],
  [
    "json: ICU, 3 levels into Arabic (186 branches)",
    "json",
    JSON.stringify({ k: "{n,plural,one{#}other{{n,plural,one{#}other{{n,plural,one{#}other{x}}}}}}" }),
    "ar",
  ],
  [
    "json: 4,900 entries of 720 characters (3.5 MB)",
    "json",
    JSON.stringify(Object.fromEntries(Array.from({ length: 4_900 }, (_, i) => [`k${i}`, value]))),
  ],
  ["yaml: 4,900 entries (3.5 MB)", "yaml", `en:\n${Array.from({ length: 4_900 }, (_, i) => `  k${i}: "${value}"`).join("\n")}`],
  ["po: 4,900 entries (3.6 MB)", "po", Array.from({ length: 4_900 }, (_, i) => `msgid "${i} ${value}"\nmsgstr ""\n`).join("\n")],
  [
    "android: 4,900 entries (3.6 MB)",
    "android",
    `<resources>${Array.from({ length: 4_900 }, (_, i) => `<string name="k${i}">${value}</string>`).join("\n")}</resources>`,
  ],
  [
    "xliff: 4,900 entries (3.7 MB)",
    "xliff",
    `<xliff version="1.2"><file source-language="en"><body>${Array.from({ length: 4_900 }, (_, i) => `<trans-unit id="k${i}"><source>${value}</source></trans-unit>`).join("\n")}</body></file></xliff>`,
  ],
  ["strings: 4,900 entries (3.5 MB)", "strings", Array.from({ length: 4_900 }, (_, i) => `"k${i}" = "${value}";`).join("\n")],
  ["srt: 4,900 cues (3.6 MB)", "srt", Array.from({ length: 4_900 }, (_, i) => `${i + 1}\n00:00:01,000 --> 00:00:02,000\n${value}\n`).join("\n")],
];

for (const [name, format, content, target] of CASES) {
  const { ms, mb, outcome } = measure(format, content, target);
  console.log(`${name.padEnd(52)} ${String(content.length).padStart(9)} B ${String(ms).padStart(6)} ms ${String(mb).padStart(5)} MB  ${outcome}`);
}
