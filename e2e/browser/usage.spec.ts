import { expect, expectAccessible, issueKey, screenshot, signIn, test, VIEWPORTS } from "./fixtures";

/**
 * The dashboard's usage chart: an empty state with a call to action for a new key; with traffic, readable labels at
 * both widths (nothing under 11 px), tooltips on hover, keyboard focus and tap, the 7/30/90-day ranges, the split by
 * endpoint and by outcome, and the table alternative — with no axe critical/serious finding.
 */
test.describe("usage chart", () => {
  test("a new key: an empty state whose call to action leads to the playground", async ({ page, api }) => {
    await signIn(page, await issueKey(api, "empty usage"));
    const empty = page.getByTestId("usage-empty");
    await expect(empty).toContainText("No requests yet");
    await empty.getByRole("link", { name: "Make your first request in the playground" }).click();
    await expect(page).toHaveURL(/#playground-title$/);
    await expect(page.getByRole("heading", { name: "Playground" })).toBeInViewport();
    await expectAccessible(page, "dashboard, empty usage");
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId("toasts")).toContainText("Signed out");
  });

  test("with traffic: readable at both widths, tooltips, ranges, endpoint and outcome splits, the table", async ({ page, api }) => {
    const key = await issueKey(api, "chart");
    const auth = { Authorization: `Bearer ${key}` };
    for (const text of ["Good morning", "Good morning", "Thank you"]) {
      expect((await api.post("/api/v1/translate", { headers: auth, data: { text, source_lang: "en", target_lang: "lug" } })).status()).toBe(200);
    }
    expect((await api.post("/api/v1/translate", { headers: auth, data: { text: "Hi", source_lang: "en", target_lang: "en" } })).status()).toBe(422);
    expect((await api.post("/api/v1/detect", { headers: auth, data: { text: "Habari yako rafiki" } })).status()).toBe(200);
    await signIn(page, key);

    for (const vp of VIEWPORTS) {
      await page.setViewportSize({ width: vp.width, height: vp.height });
      await page.reload();
      const chart = page.locator("section[aria-labelledby=usage-title]");
      await expect(chart.getByTestId("usage-bar")).toHaveCount(30);
      // Every visible piece of text in the usage card is at least 11 px.
      const sizes = await chart.evaluate((root) =>
        [...root.querySelectorAll("*")]
          .filter((el) => [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent?.trim()))
          .filter((el) => (el as HTMLElement).offsetParent !== null && !el.closest(".sr-only"))
          .map((el) => Number.parseFloat(getComputedStyle(el).fontSize)),
      );
      expect(sizes.length).toBeGreaterThan(10);
      // Today's bar is drawn: its segments (by endpoint) fill the plot's height, 5 of a 5-request scale.
      const bar = chart.getByTestId("usage-bar").last();
      const drawn = await bar.getByTestId("usage-segment").evaluateAll((spans) => spans.reduce((h, el) => h + el.getBoundingClientRect().height, 0));
      const full = await bar.evaluate((el) => el.getBoundingClientRect().height);
      expect(full).toBeGreaterThan(150);
      expect(Math.abs(drawn - full), `today's bar at ${vp.width}px: ${drawn} of ${full} px`).toBeLessThan(2);
      expect(Math.min(...sizes), `smallest chart text at ${vp.width}px`).toBeGreaterThanOrEqual(11);
      await expectAccessible(page, `dashboard with usage at ${vp.width}px`);
      await chart.scrollIntoViewIfNeeded();
      await screenshot(page, `usage-chart-${vp.name}`);
    }

    // Hover: today's bar says how many requests, by endpoint (the usage read itself is not among them).
    const chart = page.locator("section[aria-labelledby=usage-title]");
    const tooltip = chart.getByTestId("usage-tooltip");
    await chart.getByTestId("usage-bar").last().hover();
    await expect(tooltip).toContainText("5 requests");
    await expect(tooltip).toContainText("Translate one text: 4");

    // Keyboard: one tab stop; the arrow keys move between days and the tooltip follows.
    await chart.getByTestId("usage-bar").last().focus();
    await page.keyboard.press("ArrowLeft");
    await expect(chart.getByTestId("usage-bar").nth(28)).toBeFocused();
    await expect(tooltip).toContainText("0 requests");
    await page.keyboard.press("End");
    await expect(tooltip).toContainText("5 requests");

    // Outcome split: the 422 is the one refused request.
    await chart.getByLabel("Show").selectOption("outcome");
    await chart.getByTestId("usage-bar").last().click(); // a tap shows it too
    await expect(tooltip).toContainText("Succeeded (2xx): 4");
    await expect(tooltip).toContainText("Refused (4xx): 1");
    await chart.getByLabel("Show").selectOption("cacheHits");
    await chart.getByTestId("usage-bar").last().click();
    await expect(tooltip).toContainText("1 cache hits");
    // Upstream calls beside requests: the two translations that were not cache hits, one call each.
    await chart.getByLabel("Show").selectOption("upstreamCalls");
    await chart.getByTestId("usage-bar").last().click();
    await expect(tooltip).toContainText("2 upstream calls");
    await expect(chart.getByTestId("usage-totals")).toContainText("Upstream calls2");

    // Ranges: 7 and 90 days, the table following.
    await chart.getByText("Show the numbers as a table").click();
    for (const days of [7, 90]) {
      await chart.getByRole("button", { name: `${days} days` }).click();
      await expect(chart.getByRole("button", { name: `${days} days` })).toHaveAttribute("aria-pressed", "true");
      await expect(chart.getByTestId("usage-bar")).toHaveCount(days);
      await expect(chart.locator("tbody tr")).toHaveCount(days);
    }
    const today = new Date().toISOString().slice(0, 10);
    const row = chart.getByRole("row", { name: new RegExp(today) });
    await expect(row.getByRole("cell")).toHaveText(["5", "2", "1", "21", "1"]);
  });
});
