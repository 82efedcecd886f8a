import { readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, expectAccessible, issueKey, signIn, test, VIEWPORTS } from "./fixtures";

/**
 * The dashboard as a workspace, measured as a person sees it at 1280 and 390 px after ten calls: the usage chart draws
 * a bar per endpoint per day (each segment's rendered box has a width and a height inside the plot), nothing in the
 * portal scrolls sideways, moving between days with the keyboard does not move the page, the request log lists the
 * ten calls with their request ids, filters them and exports them (and the usage table) as CSV; axe stays clean.
 * Screenshots are kept under test-results/screenshots/.
 */
const SHOTS = path.resolve(__dirname, "../../test-results/screenshots");
const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });

const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

test.describe("the dashboard as a workspace", () => {
  test("after ten calls: the chart draws, nothing scrolls sideways, the request log lists, filters and exports them", async ({ page, api }) => {
    const key = await issueKey(api, "workspace");
    const auth = { Authorization: `Bearer ${key}` };
    const hello = { text: "Good morning", source_lang: "en", target_lang: "lug" };
    const calls: [string, string, unknown?][] = [
      ["post", "/api/v1/translate", hello],
      ["post", "/api/v1/translate", hello],
      ["post", "/api/v1/translate", { ...hello, target_lang: "en" }],
      ["post", "/api/v1/translate/batch", { items: [{ id: "a", ...hello }] }],
      ["post", "/api/v1/detect", { text: "Habari yako rafiki" }],
      ["post", "/api/v1/detect", { text: "Abaana bagenda ku ssomero" }],
      ["post", "/api/v1/speech/tts", { text: "Wasuze otya", language: "lug" }],
      ["get", "/api/v1/languages"],
      ["get", "/api/v1/auth/keys/me"],
      ["get", "/api/v1/glossaries"],
    ];
    const ids: string[] = [];
    for (const [method, url, data] of calls) {
      const res = method === "post" ? await api.post(url, { headers: auth, data }) : await api.get(url, { headers: auth });
      ids.push(res.headers()["x-request-id"]);
    }
    const endpoints = new Set(calls.map(([m, p]) => `${m.toUpperCase()} ${p}`));
    await signIn(page, key);

    for (const vp of VIEWPORTS) {
      await page.setViewportSize({ width: vp.width, height: vp.height });
      await page.goto("/dashboard");
      const chart = page.locator("section[aria-labelledby=usage-title]");

      // Every bar of the 30 days has a box inside the plot; today's has a coloured segment per endpoint, each with a
      // real width and height.
      const plot = await chart.getByRole("group", { name: /per day/ }).boundingBox();
      expect(plot).not.toBeNull();
      const bars = chart.getByTestId("usage-bar");
      await expect(bars).toHaveCount(30);
      for (const box of await bars.evaluateAll((els) => els.map((el) => el.getBoundingClientRect().toJSON() as DOMRect))) {
        expect(box.width).toBeGreaterThan(0);
        expect(box.left).toBeGreaterThanOrEqual(plot!.x - 0.5);
        expect(box.right).toBeLessThanOrEqual(plot!.x + plot!.width + 0.5);
      }
      const segments = await bars
        .last()
        .getByTestId("usage-segment")
        .evaluateAll((els) => els.map((el) => el.getBoundingClientRect().toJSON() as DOMRect));
      expect(segments).toHaveLength(endpoints.size);
      for (const s of segments) {
        expect(s.width, `segment width at ${vp.width}px`).toBeGreaterThan(0);
        expect(s.height, `segment height at ${vp.width}px`).toBeGreaterThan(0);
        expect(s.left).toBeGreaterThanOrEqual(plot!.x - 0.5);
        expect(s.right).toBeLessThanOrEqual(plot!.x + plot!.width + 0.5);
        expect(s.top).toBeGreaterThanOrEqual(plot!.y - 0.5);
        expect(s.bottom).toBeLessThanOrEqual(plot!.y + plot!.height + 0.5);
      }
      // The other ranges draw too.
      for (const days of [7, 90]) {
        await chart.getByRole("button", { name: `${days} days` }).click();
        const widths = await chart.getByTestId("usage-bar-stack").evaluateAll((els) => els.map((el) => el.getBoundingClientRect().width));
        expect(widths).toHaveLength(days);
        expect(Math.min(...widths), `bar width, ${days} days at ${vp.width}px`).toBeGreaterThan(0);
        expect(await overflow(page)).toBeLessThanOrEqual(0);
      }
      await chart.getByRole("button", { name: "30 days" }).click();
      expect(await overflow(page), `the dashboard scrolls sideways at ${vp.width}px`).toBeLessThanOrEqual(0);

      // Moving between days with the keyboard moves the focus, not the page.
      await bars.last().focus();
      const before = await page.evaluate(() => [window.scrollX, window.scrollY]);
      for (const k of ["ArrowLeft", "ArrowLeft", "Home", "End"]) await page.keyboard.press(k);
      await expect(bars.last()).toBeFocused();
      expect(await page.evaluate(() => [window.scrollX, window.scrollY])).toEqual(before);

      // The request log: the ten calls, newest first, each with its request id.
      const log = page.locator("section[aria-labelledby=requests-title]");
      await expect(log.getByTestId("request-log-count")).toContainText("of 10 requests");
      const rows = log.getByTestId(vp.width < 768 ? "request-log-card" : "request-log-row");
      await expect(rows).toHaveCount(10);
      for (const [i, id] of [...ids].reverse().entries()) await expect(rows.nth(i)).toContainText(id);
      await expectAccessible(page, `dashboard with the request log at ${vp.width}px`);
      await log.scrollIntoViewIfNeeded();
      await shot(page, `dashboard-after-ten-calls-${vp.name}`);
    }

    // Filters: by status class, by endpoint, by request id — in the URL.
    const log = page.locator("section[aria-labelledby=requests-title]");
    await page.setViewportSize({ width: 1280, height: 800 });
    await log.getByLabel("Status").selectOption("4xx");
    await log.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/status=4xx/);
    await expect(log.getByTestId("request-log-row")).toHaveCount(1);
    await expect(log.getByTestId("request-log-row")).toContainText(ids[2]);
    await log.getByRole("link", { name: "Clear" }).click();
    await log.getByLabel("Endpoint").selectOption("POST /api/v1/detect");
    await log.getByRole("button", { name: "Filter" }).click();
    await expect(log.getByTestId("request-log-row")).toHaveCount(2);
    await log.getByRole("link", { name: "Clear" }).click();
    await log.getByLabel("Request id").fill(ids[6]);
    await log.getByRole("button", { name: "Filter" }).click();
    await expect(log.getByTestId("request-log-row")).toHaveCount(1);
    await expect(log.getByTestId("request-log-row")).toContainText("POST /api/v1/speech/tts");
    await log.getByRole("link", { name: "Clear" }).click();

    // CSV: the request log (the ten calls, with their ids) and the usage table.
    const [logCsv] = await Promise.all([page.waitForEvent("download"), log.getByTestId("request-log-csv").click()]);
    expect(logCsv.suggestedFilename()).toMatch(/^lugha-requests-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = readFileSync((await logCsv.path())!, "utf8")
      .trim()
      .split("\r\n");
    expect(lines[0]).toBe("time,request_id,endpoint,status,latency_ms,provider,model_used,cache,upstream_calls");
    for (const id of ids) expect(lines.some((l) => l.split(",")[1] === id)).toBe(true);
    const chart = page.locator("section[aria-labelledby=usage-title]");
    const [usageCsv] = await Promise.all([page.waitForEvent("download"), chart.getByTestId("usage-csv").click()]);
    const usage = readFileSync((await usageCsv.path())!, "utf8")
      .trim()
      .split("\r\n");
    expect(usage[0]).toBe("day,requests,upstream_calls,errors,characters,cache_hits");
    expect(usage).toHaveLength(31);
    expect(usage.at(-1)).toMatch(new RegExp(`^${new Date().toISOString().slice(0, 10)},\\d+,\\d+,1,`));
  });

  test("no page of the portal scrolls sideways at 390 or 1280 px", async ({ page, api }) => {
    await signIn(page, await issueKey(api, "no sideways"));
    for (const vp of VIEWPORTS) {
      await page.setViewportSize({ width: vp.width, height: vp.height });
      for (const url of ["/", "/languages", "/docs", "/docs/guide", "/dashboard"]) {
        await page.goto(url);
        await page.waitForLoadState("networkidle");
        expect(await overflow(page), `${url} scrolls sideways at ${vp.width}px`).toBeLessThanOrEqual(0);
      }
    }
  });

  test("/languages: found by other names (Akan, Asante, Ganda, Kiswahili), and cards on a phone", async ({ page }) => {
    await page.goto("/languages");
    const search = page.getByRole("searchbox");
    for (const [name, expected] of [
      ["Akan", ["Twi", "Fante"]],
      ["Asante", ["Twi"]],
      ["Ganda", ["Luganda"]],
      ["Kiswahili", ["Swahili"]],
    ] as const) {
      await search.fill(name);
      const rows = page
        .getByRole("table")
        .getByRole("row")
        .filter({ has: page.getByRole("rowheader") });
      for (const lang of expected) await expect(rows.filter({ hasText: lang }).first()).toBeVisible();
    }
    await page.setViewportSize({ width: 390, height: 844 });
    await search.fill("Twi");
    await expect(page.getByTestId("coverage-cards").getByRole("listitem").first()).toContainText("Text-to-speech");
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await expectAccessible(page, "/languages at 390px");
    await shot(page, "languages-phone");
  });
});
