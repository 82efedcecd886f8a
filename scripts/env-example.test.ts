import { readFileSync } from "node:fs";
import { expect, it } from "vitest";

/** `.env.example` lists exactly the variables of the README's configuration table, in the same order. */
it(".env.example and the README's configuration table name the same variables, in the same order", () => {
  const readme = readFileSync("README.md", "utf8");
  const section = readme.slice(readme.indexOf("## Configuration"), readme.indexOf("\n## ", readme.indexOf("## Configuration") + 1));
  const fromReadme = section
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .flatMap((line) => [...line.split("|")[1].matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]));
  const fromExample = [...readFileSync(".env.example", "utf8").matchAll(/^#? ?([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]);
  expect(fromReadme.length).toBeGreaterThan(30);
  expect(fromExample).toEqual(fromReadme);
});
