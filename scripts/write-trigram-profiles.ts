import { writeFileSync } from "node:fs";
import { data } from "franc-all/data.js";
import { LANGUAGES } from "@/lib/languages/registry";
import { selectProfiles } from "@/lib/languages/trigrams";

/** Writes lib/languages/trigram-profiles.json: franc-all's trigram profiles of the registry's languages (./trigrams.ts). */
const file = new URL("../lib/languages/trigram-profiles.json", import.meta.url);
const codes = LANGUAGES.flatMap((l) => (l.franc ? [l.franc] : []));
writeFileSync(file, `${JSON.stringify(selectProfiles(data, codes), null, 1)}\n`);
console.log(`wrote lib/languages/trigram-profiles.json (${codes.length} languages)`);
