import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type CatalogFormat, loadCatalogFormats, parseCatalog, targetEntries } from "@/lib/catalog";
import { translateCatalog } from "./catalog";
import { emulatorDeps, entryProblems, toolingProblem, writtenTranslations } from "./catalog.protection.test-support";
import { emulatorServersForFile } from "./emulators.test-support";

// parseCatalog and friends need the format's module loaded (lib/catalog/index.ts loadCatalogFormat).
await loadCatalogFormats();

/**
 * The 14 real catalog files kept beside the checkout (SHARED: excerpts of open-source projects' English catalogs,
 * outside the repository with their licences; present wherever the tests run in CI) through translateCatalog, the real clients
 * and the emulators in their hostile mode, into Luganda, Twi and Swahili: every entry comes back translated, with
 * every placeholder, tag, escape and ICU structure of its source, and each file passes its format's own tooling.
 */

const SHARED = join(__dirname, "../../../shared/catalogs");

const FILES: [string, CatalogFormat][] = [
  ["android-antennapod-strings.xml", "android"],
  ["android-etar-calendar-strings.xml", "android"],
  ["po-django-conf-locale-en.po", "po"],
  ["pot-wordpress-redirection.pot", "po"],
  ["xliff12-paperless-ngx-messages.xlf", "xliff"],
  ["xliff20-bolt-validators.en.xlf", "xliff"],
  ["strings-iina-Localizable.strings", "strings"],
  ["arb-lichess-mobile-app_en.arb", "arb"],
  ["yaml-redmine-config-locales-en.yml", "yaml"],
  ["json-grafana-i18next-en-US.json", "json"],
  ["json-overseerr-icu-en.json", "json"],
  ["srt-elephants-dream-en.srt", "srt"],
  ["vtt-videojs-elephantsdream-descriptions-en.vtt", "vtt"],
  ["markdown-eslint-shareable-configs.md", "markdown"],
];

const servers = emulatorServersForFile({ translation: "hostile" });

describe.skipIf(!existsSync(SHARED))("the 14 real catalog files of ../shared/catalogs through the hostile sandbox", () => {
  describe.each(["lug", "tw", "sw"])("into %s", (target) => {
    it.each(FILES)("%s (%s): every entry translated, everything protected kept, the file valid", async (file, format) => {
      const content = readFileSync(join(SHARED, file), "utf8");
      const r = await translateCatalog({ format, content, source_lang: "en", target_lang: target }, emulatorDeps(servers));
      expect(r.entries.failed).toEqual([]);
      expect(r.entries.pending).toBe(0);
      expect(r.entries.translated + r.entries.kept).toBe(r.entries.total);
      // The format's own tool finds nothing the source did not already have (one cut of a real file holds an XML
      // comment that its cut left open; a plural may gain the target's categories, so line numbers are not compared).
      const problem = (text: string) => toolingProblem(format, text)?.replace(/^\d+:\d+: /, "");
      expect(problem(r.content)).toBe(problem(content));
      const written = writtenTranslations(format, r.content, target);
      const problems: string[] = [];
      let translated = 0;
      for (const unit of targetEntries(parseCatalog(format, content), target)) {
        if (!unit.translatable) continue;
        const translation = written.get(unit.id);
        if (translation !== undefined && translation !== unit.source) translated++;
        for (const p of entryProblems(unit, translation)) problems.push(`${unit.id}: ${p}`);
      }
      expect(problems).toEqual([]);
      expect(translated).toBe(r.entries.translated);
    });
  });
});
