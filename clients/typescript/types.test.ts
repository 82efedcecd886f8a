import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { generateTypes, TYPES_FILE } from "./scripts/types";

it("the committed client types are what the served OpenAPI document generates (run `npm run client:types` after changing it)", async () => {
  expect(readFileSync(TYPES_FILE, "utf8") === (await generateTypes())).toBe(true);
});
