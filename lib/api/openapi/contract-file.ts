import { componentSchemas } from "./component-schemas";
import { buildOpenApiDocument } from "./document";

/**
 * The contract as a file: docs/openapi.json is the document /api/v1/openapi.json serves (with the default
 * configuration: the STT upload limit is the only configurable value it states), committed so that a change to the API
 * shows in review as a diff. `npm run openapi:write` (and `npm run client:types`) rewrites it; a test fails when it drifts.
 */
export const OPENAPI_FILE = new URL("../../../docs/openapi.json", import.meta.url);

/**
 * The document as the committed file holds it (two-space JSON and a final newline): by default the one the code makes
 * now, its component schemas computed from the zod schemas — not the served one, which takes them from this file.
 */
export function openApiFileText(document: unknown = buildOpenApiDocument(componentSchemas())): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
