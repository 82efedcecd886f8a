import { mkdirSync } from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { type APIRequestContext, test as base, expect, type Locator, type Page } from "@playwright/test";

/**
 * Shared fixtures:
 *  - every test runs in a context with its own client address (X-Forwarded-For; the server trusts it in these tests),
 *    so per-address limits (key issuance, sign-in) are per test;
 *  - every test fails if the page logged a console error or threw (pageerror), except messages a test declares it
 *    provokes on purpose (`allowConsoleErrors`) — e.g. Chromium's "Failed to load resource: … 422" for a deliberately
 *    invalid request.
 */
export const ARTIFACTS = path.resolve(__dirname, "../artifacts");
mkdirSync(ARTIFACTS, { recursive: true });

let addressCounter = 0;
function uniqueAddress(): string {
  addressCounter += 1;
  return `10.${(process.pid >> 8) & 255}.${process.pid & 255}.${addressCounter % 250}`;
}

interface Fixtures {
  clientAddress: string;
  /** Console errors a test provokes on purpose (an object: Playwright reads a bare array option as [value, options]). */
  allowConsoleErrors: { patterns: RegExp[] };
  consoleErrors: string[];
  api: APIRequestContext;
}

export const test = base.extend<Fixtures>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this destructuring; this one has none
  clientAddress: async ({}, use) => use(uniqueAddress()),
  allowConsoleErrors: [{ patterns: [] }, { option: true }],
  extraHTTPHeaders: async ({ clientAddress }, use) => use({ "X-Forwarded-For": clientAddress }),
  consoleErrors: [
    async ({ page, allowConsoleErrors }, use) => {
      const errors: string[] = [];
      page.on("console", (msg) => {
        if (msg.type() !== "error") return;
        const text = `${msg.text()} @ ${msg.location().url}`;
        if (!allowConsoleErrors.patterns.some((re) => re.test(text))) errors.push(text);
      });
      page.on("pageerror", (err) => errors.push(`pageerror: ${err.message}`));
      await use(errors);
      expect(errors, "console errors / uncaught exceptions in the page").toEqual([]);
    },
    { auto: true },
  ],
  api: async ({ playwright, baseURL, clientAddress }, use) => {
    const ctx = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { "X-Forwarded-For": clientAddress } });
    await use(ctx);
    await ctx.dispose();
  },
});

export { expect };

export const KEY_RE = /^svc_[0-9a-f]{40}$/;

/** Issues a key through the API (for tests that are not about the form). */
export async function issueKey(api: APIRequestContext, name = "e2e key"): Promise<string> {
  const res = await api.post("/api/v1/auth/keys", { data: { name } });
  expect(res.status(), await res.text()).toBe(200);
  const body = (await res.json()) as { api_key: string };
  expect(body.api_key).toMatch(KEY_RE);
  return body.api_key;
}

/** Signs in through the /signin form. */
export async function signIn(page: Page, key: string) {
  await page.goto("/signin");
  await page.getByLabel("API key", { exact: true }).fill(key);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
}

export async function screenshot(page: Page, name: string) {
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/** The widths every page is checked at. */
export const VIEWPORTS = [
  { name: "desktop", width: 1280, height: 800 },
  { name: "phone", width: 390, height: 844 },
] as const;

/** axe-core over the WCAG 2.2 A/AA rules and its best practices; a critical or serious finding fails the test. */
export async function expectAccessible(page: Page, where: string) {
  const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]).analyze();
  const blocking = violations
    .filter((v) => v.impact === "critical" || v.impact === "serious")
    .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.length}×, e.g. ${v.nodes[0]?.target.join(" ")})`);
  expect(blocking, `axe findings on ${where}`).toEqual([]);
}

/** The page does not scroll sideways. */
export async function expectNoSidewaysScroll(page: Page, where: string) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${where} scrolls sideways`).toBeLessThanOrEqual(0);
}

/** Words of the element's text that the layout split over two lines (a word wider than its box excepted). */
export function brokenWords(locator: Locator): Promise<string[]> {
  return locator.evaluate((root) => {
    const broken: string[] = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? "";
      const box = node.parentElement!.getBoundingClientRect();
      for (const m of text.matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const rects = [...range.getClientRects()].filter((r) => r.width > 0);
        const width = rects.reduce((sum, r) => sum + r.width, 0);
        if (new Set(rects.map((r) => Math.round(r.top))).size > 1 && width <= box.width) broken.push(m[0]);
      }
    }
    return broken;
  });
}
