import { type CatalogFormat, loadCatalogFormats, parseCatalog, targetEntries } from "@/lib/catalog";
import { largeCatalogs } from "@/lib/catalog/catalog.test-support";

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

const CASES: [string, CatalogFormat, string, string?][] = [
  ["markdown: 64 columns × 29 rows (1,984 cells)", "markdown", table(64, 29)],
  ["markdown: 10 columns × 198 rows (2,000 cells)", "markdown", table(10, 198)],
  ["markdown: one paragraph of 200 `_a**b` marks", "markdown", "_a**b ".repeat(100)],
  ["markdown: 25 paragraphs of 200 marks (5,000)", "markdown", Array.from({ length: 25 }, () => "_a**b ".repeat(100)).join("\n\n")],
  [
    "json: ICU, 3 levels into Arabic (186 branches)",
    "json",
    JSON.stringify({ k: "{n,plural,one{#}other{{n,plural,one{#}other{{n,plural,one{#}other{x}}}}}}" }),
    "ar",
  ],
];

for (const [format, content] of largeCatalogs()) {
  CASES.push([`${format}: an ordinary file of ${(content.length / 1e6).toFixed(1)} MB`, format, content]);
}

loadCatalogFormats().then(() => {
  for (const [name, format, content, target] of CASES) {
    const { ms, mb, outcome } = measure(format, content, target);
    console.log(`${name.padEnd(52)} ${String(content.length).padStart(9)} B ${String(ms).padStart(6)} ms ${String(mb).padStart(5)} MB  ${outcome}`);
  }
});
