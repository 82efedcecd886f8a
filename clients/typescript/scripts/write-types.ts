import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { generateTypes, TYPES_FILE } from "./types";

writeFileSync(TYPES_FILE, await generateTypes());
console.log(`wrote ${fileURLToPath(TYPES_FILE)}`);
