import { mkdirSync } from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, VIEWPORTS } from "./fixtures";

/**
 * /docs/guide: docs/guide.md rendered at build time, read as a person would at phone and desktop width. The headings of
 * every feature the guide covers are visible, nothing scrolls sideways but code blocks and tables inside their own
 * box, axe-core finds nothing at all, the page runs under the per-request CSP (a blocked script would be a console
 * error, which fails the test: see fixtures.ts), and a full-page screenshot per width is kept in test-results/guide/.
 */
const SCREENSHOTS = path.resolve(__dirname, "../../test-results/guide");
mkdirSync(SCREENSHOTS, { recursive: true });

/** One heading per feature, as the guide names them. */
const FEATURE_HEADINGS = [
  "Translating text",
  "Batch translation",
  "Routing and fallback",
  "The routing order",
  "Fallback",
  "Forcing a provider",
  "Quality scores",
  "Detecting the language",
  "Localisation-safe translation (format)",
  "Keeping terms as written (do_not_translate)",
  "Glossaries",
  "The translation cache",
  "Languages",
  "Speech",
  "Usage",
  "Limits",
  "Rate limits",
  "Errors",
];

test.describe("developer guide", () => {
  for (const vp of VIEWPORTS) {
    test(`/docs/guide at ${vp.width}px: every feature's heading, no sideways scroll, no axe finding`, async ({ page }) => {
      // The guide is several times longer than the pages the default budget was set for (the other protocols, voice
      // notes, quota, protected syntaxes): its full-page screenshot and the axe pass over it need more than 90 s on
      // two busy cores.
      test.setTimeout(360_000);
      await page.setViewportSize({ width: vp.width, height: vp.height });
      const response = await page.goto("/docs/guide");
      expect(response!.status()).toBe(200);
      expect(response!.headers()["content-security-policy"], "CSP").toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
      await expect(page).toHaveTitle(/Developer guide/);
      await expect(page.getByRole("heading", { level: 1, name: "Lugha developer guide" })).toBeVisible();
      await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Guide" })).toHaveAttribute("aria-current", "page");
      // The page's scripts ran under the CSP: Next.js's inline payload scripts (they carry the nonce) filled __next_f.
      // A script the CSP blocked would also be a console error, which fails the test (fixtures.ts).
      await page.waitForLoadState("networkidle");
      expect(await page.evaluate(() => Array.isArray((self as unknown as { __next_f?: unknown }).__next_f))).toBe(true);

      const guide = page.locator("article.guide");
      // The page as it first shows, kept for a person to look at.
      await page.screenshot({ path: path.join(SCREENSHOTS, `guide-${vp.width}.png`), fullPage: true });

      for (const name of FEATURE_HEADINGS) {
        const heading = guide.getByRole("heading", { name, exact: true });
        await heading.scrollIntoViewIfNeeded();
        await expect(heading, name).toBeVisible();
      }
      // What the features are called in the API, where a reader looks for them.
      for (const text of ["/api/v1/glossaries", "X-Lugha-Cache", "Cache-Control: no-cache", "/api/v1/usage", "/api/v1/detect"]) {
        const code = guide.locator(":not(pre) > code").filter({ hasText: text }).first();
        await code.scrollIntoViewIfNeeded();
        await expect(code, text).toBeVisible();
      }
      const sunflower = guide.locator("li").filter({ hasText: "Sunflower-extended" }).first();
      await sunflower.scrollIntoViewIfNeeded();
      await expect(sunflower).toBeVisible();

      // The rendered Markdown carries no script and no inline event handler of its own.
      expect(await guide.locator("script").count()).toBe(0);
      const handlers = await guide.evaluate((root) =>
        [...root.querySelectorAll("*")].flatMap((el) => [...el.attributes].filter((a) => /^on/i.test(a.name)).map((a) => a.name)),
      );
      expect(handlers).toEqual([]);

      // No sideways scroll: wide code and tables scroll inside their own box.
      await page.evaluate(() => window.scrollTo(0, 0));
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `the guide scrolls sideways at ${vp.width}px`).toBeLessThanOrEqual(0);
      const boxes = await guide.evaluate((root) =>
        [...root.querySelectorAll("pre, .scroll-region")].map((el) => ({
          right: el.getBoundingClientRect().right,
          scrolls: el.scrollWidth > el.clientWidth,
        })),
      );
      expect(boxes.length).toBeGreaterThan(5);
      for (const box of boxes) expect(box.right).toBeLessThanOrEqual(vp.width);
      if (vp.width < 500)
        expect(
          boxes.some((b) => b.scrolls),
          "some code block or table scrolls inside its box on a phone",
        ).toBe(true);

      // A contents link leads to its section.
      await guide.getByRole("link", { name: "The translation cache", exact: true }).first().click();
      await expect(page).toHaveURL(/#the-translation-cache$/);
      await expect(guide.getByRole("heading", { name: "The translation cache", exact: true })).toBeInViewport();

      const { violations } = await new AxeBuilder({ page })
        .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"])
        .analyze();
      expect(
        violations.map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.length}×, e.g. ${v.nodes[0]?.target.join(" ")})`),
        `axe findings on /docs/guide at ${vp.width}px`,
      ).toEqual([]);
    });
  }

  test("reached from the main navigation and from the API reference", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Guide" }).click();
    await expect(page).toHaveURL(/\/docs\/guide$/);
    await expect(page.getByRole("heading", { level: 1, name: "Lugha developer guide" })).toBeVisible();

    await page.goto("/docs");
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "API reference" })).toHaveAttribute("aria-current", "page");
    await page.locator("main").getByRole("link", { name: "the developer guide" }).click();
    await expect(page).toHaveURL(/\/docs\/guide$/);
    await expect(page.getByRole("heading", { level: 1, name: "Lugha developer guide" })).toBeVisible();
  });
});
