import path from "node:path";
import type { Locator } from "@playwright/test";
import { ARTIFACTS, brokenWords, expect, expectNoSidewaysScroll, issueKey, screenshot, signIn, test, VIEWPORTS } from "./fixtures";

/**
 * What a newcomer saw in the screenshots of their first hour, checked on the rendered boxes at 390 and 1280 px (a
 * screenshot of each kept in e2e/artifacts/): the API reference's error table scrolls inside its own box; the request
 * log's time stays in its column; no word breaks in the middle; the provider choice is not cut off; the main navigation
 * and the playground's tabs keep one row; /status says when every provider is a sandbox; and the playground uses the
 * translation cache as any client does, telling hit, miss and bypass as X-Lugha-Cache does.
 */

/** 1 when the items sit in one row, 2 when one starts below the bottom of another (a wrapped row). */
async function rowsOf(items: Locator): Promise<number> {
  const boxes = await items.evaluateAll((els) => els.map((el) => el.getBoundingClientRect().toJSON() as DOMRect));
  expect(boxes.length).toBeGreaterThan(1);
  const firstBottom = Math.min(...boxes.map((b) => b.bottom));
  return boxes.some((b) => b.top >= firstBottom - 1) ? 2 : 1;
}

test.describe("a newcomer's first hour, at 390 and 1280 px", () => {
  test("/docs: the error-code table scrolls inside its own box and can be reached by keyboard", async ({ page }) => {
    for (const vp of VIEWPORTS) {
      await page.setViewportSize({ width: vp.width, height: vp.height });
      await page.goto("/docs");
      const table = page.locator(".swagger-ui .renderedMarkdown table").filter({ hasText: "VALIDATION_ERROR" });
      await table.scrollIntoViewIfNeeded();
      await expect(table).toBeVisible();
      await expect(table).toHaveAttribute("tabindex", "0");
      const box = await table.evaluate((el) => ({
        right: el.getBoundingClientRect().right,
        scrollWidth: el.scrollWidth,
        clientWidth: el.clientWidth,
        overflowX: getComputedStyle(el).overflowX,
      }));
      expect(box.right, `the table ends inside the window at ${vp.width}px`).toBeLessThanOrEqual(vp.width);
      expect(box.overflowX).toBe("auto");
      if (box.scrollWidth > box.clientWidth) {
        // Wider than the window: it scrolls, and its last column can be brought into view.
        await table.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
        expect(await table.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
        await table.evaluate((el) => el.scrollTo({ left: 0 }));
      }
      if (vp.width === 390) expect(box.scrollWidth, "at 390 px the error table is wider than its box").toBeGreaterThan(box.clientWidth);
      await expectNoSidewaysScroll(page, `/docs at ${vp.width}px`);
      await table.screenshot({ path: path.join(ARTIFACTS, `first-hour-docs-error-table-${vp.name}.png`) });
    }
  });

  test("/status says every provider is a sandbox when every one is", async ({ page }) => {
    for (const vp of VIEWPORTS) {
      await page.setViewportSize({ width: vp.width, height: vp.height });
      await page.goto("/status");
      await expect(page.getByText("Sandbox mode:")).toBeVisible();
      await expect(page.getByText(/every provider answers from an offline emulator/)).toBeVisible();
      await expect(page.getByText(/at least one provider/)).toHaveCount(0);
      // Signed out, the whole main navigation fits the window in one row, "Sign in" included.
      const nav = page.getByTestId("main-nav").getByRole("listitem");
      expect(await rowsOf(nav), `nav rows at ${vp.width}px`).toBe(1);
      const rights = await nav.evaluateAll((els) => els.map((el) => el.getBoundingClientRect().right));
      expect(Math.max(...rights), `the navigation's last item at ${vp.width}px`).toBeLessThanOrEqual(vp.width);
      await expectNoSidewaysScroll(page, `/status at ${vp.width}px`);
      await screenshot(page, `first-hour-status-${vp.name}`);
    }
  });

  test("playground and request log: the cache used and told truthfully, provider and model once, nothing cut or broken mid-word, nav and tabs in one row", async ({
    page,
    api,
  }) => {
    test.setTimeout(240_000); // two widths of the whole dashboard, each translating and reloading
    const key = await issueKey(api, "first hour");
    await signIn(page, key);
    // The browser's own request headers: no Cache-Control: no-cache added to the playground's calls.
    const sent: (string | undefined)[] = [];
    page.on("request", (req) => {
      if (req.url().endsWith("/api/v1/translate") && req.method() === "POST") sent.push(req.headers()["cache-control"]);
    });
    const form = page.getByRole("form", { name: "Translate a text" });
    const result = page.getByTestId("translate-result");
    const cacheLine = result.locator("[data-meta='Cache']");
    const text = "Please send me a voice note";
    await form.getByLabel("Text").fill(text);
    await form.getByLabel("From").selectOption("en");
    await form.getByLabel("To").selectOption("lug");
    await form.getByRole("button", { name: "Translate" }).click();
    await expect(cacheLine).toHaveText(/^miss: a provider translated it/);
    await form.getByRole("button", { name: "Translate" }).click();
    await expect(cacheLine).toHaveText(/^hit: answered from the translation cache/);
    expect(sent).toEqual([undefined, undefined]);
    // A client that asks for a fresh translation is told "bypass" (the request log below shows it too).
    const fresh = await api.post("/api/v1/translate", {
      headers: { authorization: `Bearer ${key}`, "cache-control": "no-cache" },
      data: { text, source_lang: "en", target_lang: "lug" },
    });
    expect(fresh.headers()["x-lugha-cache"]).toBe("bypass");

    // Provider and model once each in the result.
    await expect(result.getByTestId("response-meta")).not.toContainText("Provider");
    await expect(result.locator("dd[data-field=provider]")).toHaveCount(1);
    await expect(result.locator("dd[data-field=model_used]")).toHaveCount(1);

    for (const vp of VIEWPORTS) {
      await page.setViewportSize({ width: vp.width, height: vp.height });
      await page.goto("/dashboard");
      await expect(page.getByTestId("requests-total")).toBeVisible();
      await expectNoSidewaysScroll(page, `/dashboard at ${vp.width}px`);

      // The main navigation and the playground's tabs: one row each (at 390 px they scroll sideways inside their box).
      expect(await rowsOf(page.getByTestId("main-nav").getByRole("listitem")), `nav rows at ${vp.width}px`).toBe(1);
      const tabs = page.getByRole("tablist", { name: "Playground" }).getByRole("tab");
      expect(await rowsOf(tabs), `tab rows at ${vp.width}px`).toBe(1);
      const lastTab = tabs.last();
      await lastTab.click();
      await expect(lastTab).toHaveAttribute("aria-selected", "true");
      await tabs.first().click();

      // The provider choice: every option's text fits its field.
      const select = form.getByLabel("Provider");
      const cut = await select.evaluate((el: HTMLSelectElement) => {
        const style = getComputedStyle(el);
        const context = document.createElement("canvas").getContext("2d")!;
        context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        // The room for the text: the field less its padding (the arrow sits in the right padding).
        const room = el.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
        return [...el.options].filter((o) => context.measureText(o.text).width > room).map((o) => o.text);
      });
      expect(cut, `provider options cut off at ${vp.width}px`).toEqual([]);
      await expect(form.getByText("the best provider for the pair, then the next when one fails")).toBeVisible();

      // A translation's result: no word broken in the middle ("cac he").
      await form.getByLabel("Text").fill(text);
      await form.getByLabel("From").selectOption("en");
      await form.getByLabel("To").selectOption("lug");
      await form.getByRole("button", { name: "Translate" }).click();
      await expect(cacheLine).toHaveText(/^hit/);
      expect(await brokenWords(result.getByTestId("response-meta")), `broken words at ${vp.width}px`).toEqual([]);
      expect(await brokenWords(result.locator("dl").last()), `broken words at ${vp.width}px`).toEqual([]);
      await result.screenshot({ path: path.join(ARTIFACTS, `first-hour-translate-result-${vp.name}.png`) });

      // The request log, after a reload: hit, miss and bypass as X-Lugha-Cache said; the time inside its column.
      await page.reload();
      const log = page.locator("section[aria-labelledby=requests-title]");
      if (vp.width >= 768) {
        const rows = log.getByTestId("request-log-row").filter({ hasText: "POST /api/v1/translate" });
        await expect(rows.first()).toBeVisible();
        const column = await log.locator("thead th").evaluateAll((ths) => ths.findIndex((th) => th.textContent?.trim() === "Cache"));
        const caches = await rows.evaluateAll((trs, i) => trs.map((tr) => tr.children[i]?.textContent), column);
        expect(caches).toEqual(expect.arrayContaining(["hit", "miss", "bypass"]));
        const overlaps = await log.getByTestId("request-log-row").evaluateAll((trs) =>
          trs.flatMap((tr) => {
            const time = tr.querySelector("[data-column=time]")!;
            const range = document.createRange();
            range.selectNodeContents(time);
            const textRight = Math.max(...[...range.getClientRects()].map((r) => r.right));
            const next = (time.nextElementSibling as HTMLElement).getBoundingClientRect().left;
            return textRight > next || time.scrollWidth > time.clientWidth ? [time.textContent] : [];
          }),
        );
        expect(overlaps, `times running into the endpoint column at ${vp.width}px`).toEqual([]);
      } else {
        const cards = log.getByTestId("request-log-card");
        await expect(cards.first()).toBeVisible();
        expect(await brokenWords(cards.first()), "broken words in a request-log card").toEqual([]);
      }
      await screenshot(page, `first-hour-dashboard-${vp.name}`);
    }
  });
});
