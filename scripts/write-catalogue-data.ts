import { writeFileSync } from "node:fs";
import { ALL_AVAILABLE } from "@/lib/availability";
import { sourceLanguagesOf } from "@/lib/languages/detect";
import { listLanguages } from "@/lib/languages/listing";
import { resolveModelMap } from "@/lib/languages/models";
import { PROVIDERS } from "@/lib/providers/descriptors";
import { subjectsOf } from "@/lib/server/availability";

/**
 * Writes what the built-in catalogue (the default model map and HF_ASR_MODEL) gives, so that a new instance does not
 * work it out for its first listing (lib/languages/listing.ts shippedListing, lib/server/availability.ts
 * catalogueSubjects): the models the listing checks before it answers (lib/languages/catalogue-subjects.json) and the
 * unfiltered listing with everything available (lib/languages/default-listing.json: the response body's bytes, served
 * as they are, so one line with no line break at its end); and, for the default model map alone, the languages source
 * detection answers with (lib/languages/detection-candidates.json, lib/languages/detect.ts detectionCandidates). Run it
 * after changing a provider's descriptor, the registry or the model map: a unit test
 * (lib/languages/shipped-catalogue.test.ts, lib/languages/detect.test.ts) fails until then.
 */
const write = (name: string, text: string) => writeFileSync(new URL(`../lib/languages/${name}`, import.meta.url), text);

const models = resolveModelMap();
const subjects = subjectsOf(models);
write("catalogue-subjects.json", `${JSON.stringify({ subjects }, null, 2)}\n`);
console.log(`wrote lib/languages/catalogue-subjects.json (${subjects.length} models)`);

const listing = listLanguages({}, models, PROVIDERS, ALL_AVAILABLE);
write("default-listing.json", JSON.stringify(listing));
console.log(`wrote lib/languages/default-listing.json (${listing.total} languages)`);

const candidates = sourceLanguagesOf(models);
write("detection-candidates.json", `${JSON.stringify({ codes: candidates }, null, 2)}\n`);
console.log(`wrote lib/languages/detection-candidates.json (${candidates.length} languages)`);
