import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { OPENAPI_FILE, openApiFileText } from "@/lib/api/openapi/contract-file";

writeFileSync(OPENAPI_FILE, openApiFileText());
console.log(`wrote ${fileURLToPath(OPENAPI_FILE)}`);
