import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { CONFIG_VARIABLES, PLATFORM_VARIABLES } from "../lib/config";

/**
 * `.env.example` lists exactly the variables of the configuration table (docs/configuration.md, section "Variables"),
 * in the same order, and they are the variables the configuration schema (lib/config) reads, less those the host sets.
 */
it(".env.example, the configuration table of docs/configuration.md and the configuration schema name the same variables", () => {
  const doc = readFileSync("docs/configuration.md", "utf8");
  const start = doc.indexOf("\n## Variables\n");
  expect(start, 'docs/configuration.md has a "## Variables" section').toBeGreaterThanOrEqual(0);
  const end = doc.indexOf("\n## ", start + 1);
  const section = doc.slice(start, end === -1 ? undefined : end);
  const fromTable = section
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .flatMap((line) => [...line.split("|")[1].matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]));
  const fromExample = [...readFileSync(".env.example", "utf8").matchAll(/^#? ?([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]);
  expect(fromTable.length).toBeGreaterThan(30);
  expect(fromExample).toEqual(fromTable);
  const operatorVariables = CONFIG_VARIABLES.filter((v) => !PLATFORM_VARIABLES.includes(v));
  expect([...fromTable].sort()).toEqual([...operatorVariables].sort());
});
