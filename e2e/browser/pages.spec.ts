import type { Page } from "@playwright/test";
import { expect, expectAccessible, issueKey, screenshot, signIn, test, VIEWPORTS } from "./fixtures";

/**
 * Every page, at desktop and phone width: it renders without console errors, does not scroll sideways on a phone,
 * carries the security headers, axe-core finds nothing critical or serious, and a screenshot is kept in e2e/artifacts/.
 */
async function checkPage(page: Page, path: string, name: string, ready: (page: Page) => Promise<void>) {
  for (const vp of VIEWPORTS) {
    await page.setViewportSize({ width: vp.width, height: vp.height });
    const response = await page.goto(path);
    await ready(page);
    await page.waitForLoadState("networkidle");
    const headers = response!.headers();
    expect(headers["content-security-policy"], "CSP").toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
    expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(headers["x-content-type-options"]).toBe("nosniff");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${name} scrolls sideways at ${vp.width}px`).toBeLessThanOrEqual(0);
    await expectAccessible(page, `${name} at ${vp.width}px`);
    await screenshot(page, `${name}-${vp.name}`);
  }
}

test.describe("every page, desktop and phone", () => {
  test("home", async ({ page }) => {
    await checkPage(page, "/", "home", async (p) => {
      await expect(p.getByRole("heading", { level: 1 })).toBeVisible();
      await expect(p.getByRole("link", { name: "Search and filter every language" })).toBeVisible();
    });
    await expect(page.getByRole("note", { name: "Sandbox mode" })).toBeVisible();
  });

  test("languages: searchable and filterable, provider names beside the ids", async ({ page }) => {
    await checkPage(page, "/languages", "languages", async (p) => {
      await expect(p.getByRole("heading", { name: "Languages", level: 1 })).toBeVisible();
      // A table from 768 px; a card per language on a phone (nothing cut off).
      await expect(p.viewportSize()!.width < 768 ? p.getByTestId("coverage-cards") : p.getByRole("table")).toBeVisible();
    });
    // The coverage table comes from the registry /languages serves.
    const count = page.getByTestId("coverage-count");
    const total = Number((await count.textContent())!.match(/of (\d+)/)![1]);
    expect(total).toBeGreaterThan(40);
    await expect(page.getByTestId("coverage-cards").getByRole("listitem").filter({ hasText: "Speech-to-text" })).toHaveCount(total);
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect(page.getByRole("rowheader", { name: /Luganda/ })).toBeVisible();
    await expect(page.getByRole("row", { name: /Luganda/ })).toContainText("Sunbird AI provider_a");
    await expect(page.getByTestId("quality-bands")).toContainText("excellent — specialised provider for the language pair");

    await page.getByLabel("Search").fill("Luganda");
    await expect(page.getByRole("rowheader")).toHaveCount(1);
    await expect(count).toHaveText(`Showing 1 of ${total} languages.`);
    await page.getByLabel("Search").fill("");
    await page.getByLabel("Capability").selectOption("tts");
    const withVoices = await page.getByRole("rowheader").count();
    expect(withVoices).toBeGreaterThan(0);
    expect(withVoices).toBeLessThan(total);
    await page.getByLabel("Provider").selectOption("provider_b");
    await expect(page.getByRole("row").filter({ hasText: "GhanaNLP Khaya" })).toHaveCount(await page.getByRole("rowheader").count());
    await page.getByLabel("Search").fill("no such language");
    await expect(count).toHaveText(`Showing 0 of ${total} languages.`);
  });

  test("status: each provider's circuit, error rate and median latency, and the sandbox flag, as /health gives them", async ({ page, api }) => {
    // One translation, so the sandbox providers have calls in the last hour.
    const key = await issueKey(api, "status page");
    const translated = await api.post("/api/v1/translate", {
      headers: { authorization: `Bearer ${key}` },
      data: { text: "Good morning", source_lang: "en", target_lang: "lug" },
    });
    expect(translated.status()).toBe(200);
    const served = (await translated.json()).provider as string;
    await checkPage(page, "/status", "status", async (p) => {
      await expect(p.getByRole("heading", { name: "Status", level: 1 })).toBeVisible();
      await expect(p.getByRole("heading", { name: "Recent incidents" })).toBeVisible();
    });
    const health = await (await api.get("/health")).json();
    for (const id of ["provider_a", "provider_b", "provider_c"]) {
      const card = page.getByRole("listitem").filter({ has: page.getByText(id, { exact: true }) });
      await expect(card.getByRole("definition").first()).toHaveText(health.checks.providers[id].circuit);
    }
    const card = page.getByRole("listitem").filter({ has: page.getByText(served, { exact: true }) });
    await expect(card).toContainText(/Calls \(1 h\)\s*[1-9]/);
    await expect(card).toContainText(/Median latency\s*\d+ ms/);
    await expect(page.getByText("Sandbox mode:")).toBeVisible();
    expect(await page.content()).not.toMatch(/sandbox\.invalid|127\.0\.0\.1|svc_/);
  });

  test("sign in", async ({ page }) => {
    await checkPage(page, "/signin", "signin", async (p) => {
      await expect(p.getByRole("heading", { name: "Sign in with your API key" })).toBeVisible();
    });
  });

  test("API reference", async ({ page }) => {
    await checkPage(page, "/docs", "docs", async (p) => {
      await expect(p.locator(".swagger-ui .info .title")).toContainText("Lugha API");
      await expect(p.locator(".opblock").first()).toBeVisible();
    });
  });

  test("dashboard", async ({ page, api }) => {
    const key = await issueKey(api, "screenshots");
    await signIn(page, key);
    await checkPage(page, "/dashboard", "dashboard", async (p) => {
      await expect(p.getByTestId("requests-total")).toBeVisible();
      await expect(p.getByRole("form", { name: "Translate a text" })).toBeVisible();
    });
  });

  test.describe("not found", () => {
    // The page itself answers 404, which Chromium reports as a failed resource.
    test.use({ allowConsoleErrors: { patterns: [/status of 404 .*@ .*\/no-such-page$/] } });
    test("404 page", async ({ page }) => {
      await checkPage(page, "/no-such-page", "not-found", async (p) => {
        await expect(p.getByRole("heading", { name: "Page not found" })).toBeVisible();
      });
    });
  });

  test("signed out, /dashboard sends you to sign in", async ({ page }) => {
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/signin$/);
  });
});

test.describe("keyboard and labels", () => {
  test("skip link, labelled controls, keyboard-only key creation", async ({ page }) => {
    await page.goto("/");
    await page.keyboard.press("Tab");
    const skip = page.getByRole("link", { name: "Skip to content" });
    await expect(skip).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page.locator("#main")).toBeFocused();

    // Every form control on the home page has an accessible name.
    const unnamed = await page.locator("input, select, textarea, button").evaluateAll((els) =>
      els
        .filter((el) => (el as HTMLElement).offsetParent !== null)
        .filter((el) => {
          const id = el.id;
          const label = id ? document.querySelector(`label[for="${CSS.escape(id)}"]`) : null;
          return !(label || el.getAttribute("aria-label") || el.getAttribute("aria-labelledby") || (el.textContent ?? "").trim());
        })
        .map((el) => el.outerHTML.slice(0, 120)),
    );
    expect(unnamed).toEqual([]);

    // Create a key with the keyboard only.
    await page.getByLabel("Key name").focus();
    await page.keyboard.type("keyboard only");
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("issued-key-panel")).toBeVisible();
    await expect(page.getByRole("heading", { name: /Your new API key/ })).toBeFocused();
  });
});

test.describe("navigation", () => {
  test("a page reached from the menu opens at its top, at once (no inherited scroll, no smooth-scroll animation)", async ({ page }) => {
    await page.goto("/");
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(500);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Sign in" }).click();
    await expect(page.getByRole("heading", { name: "Sign in with your API key" })).toBeVisible();
    // Read in the very next frame: a smooth scroll would still be on its way up.
    expect(await page.evaluate(() => new Promise<number>((resolve) => requestAnimationFrame(() => resolve(window.scrollY))))).toBe(0);
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).scrollBehavior)).toBe("auto");
  });
});
