import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { CONFIG_VARIABLES, PLATFORM_VARIABLES } from "../lib/config";

/**
 * `.env.example` lists exactly the variables of the README's configuration table, in the same order, and they are the
 * variables the configuration schema (lib/config) reads, less those the host sets.
 */
it(".env.example, the README's configuration table and the configuration schema name the same variables", () => {
  const readme = readFileSync("README.md", "utf8");
  const section = readme.slice(readme.indexOf("## Configuration"), readme.indexOf("\n## ", readme.indexOf("## Configuration") + 1));
  const fromReadme = section
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .flatMap((line) => [...line.split("|")[1].matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]));
  const fromExample = [...readFileSync(".env.example", "utf8").matchAll(/^#? ?([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]);
  expect(fromReadme.length).toBeGreaterThan(30);
  expect(fromExample).toEqual(fromReadme);
  const operatorVariables = CONFIG_VARIABLES.filter((v) => !PLATFORM_VARIABLES.includes(v));
  expect([...fromReadme].sort()).toEqual([...operatorVariables].sort());
});
