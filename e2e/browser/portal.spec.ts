import { expect, KEY_RE, screenshot, test } from "./fixtures";

/**
 * The whole journey of a new developer, in the browser only: mint a key in the form, copy it, sign in with it, use
 * the playground (translate, speak, batch), watch requests_total and the usage chart grow, revoke the key and see
 * the API refuse it.
 */
test.describe("portal journey", () => {
  // Deliberate failures below: a forced provider that cannot serve the pair (422), and a revoked key at sign-in (401).
  // Chromium logs every non-2xx fetch as "Failed to load resource"; those two, and only those, are expected.
  test.use({
    allowConsoleErrors: { patterns: [/status of 422 .*@ .*\/api\/v1\/translate$/, /status of 401 .*@ .*\/api\/auth\/callback\/api-key$/] },
  });

  test("mint → copy → sign in → playground → usage → revoke", async ({ page, context, baseURL, api }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL! });

    // 1. Mint a key in the home page form (20 days, so the dashboard warns about expiry).
    await page.goto("/");
    await expect(page.getByRole("heading", { name: "Translation and speech for African languages" })).toBeVisible();
    await page.getByLabel("Key name").fill("browser journey");
    await page.getByLabel("Expires in (days)").fill("20");
    await page.getByRole("button", { name: "Create key" }).click();
    const panel = page.getByTestId("issued-key-panel");
    await expect(panel).toBeVisible();
    await expect(panel).toContainText("Store it now — it cannot be shown again");
    const key = (await page.getByTestId("issued-key").textContent())!.trim();
    expect(key).toMatch(KEY_RE);
    await screenshot(page, "home-key-issued-desktop");

    // 2. Copy it with the button; the clipboard holds exactly the key.
    await panel.getByRole("button", { name: "Copy key" }).click();
    await expect(panel.getByRole("button", { name: "Copied" })).toBeVisible();
    await expect(page.getByTestId("toasts")).toContainText("Copied to the clipboard");
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(key);

    // The key works against the API (this request is counted: requests_total 1).
    const me = await api.get("/api/v1/auth/keys/me", { headers: { Authorization: `Bearer ${copied}` } });
    expect(me.status()).toBe(200);
    expect((await me.json()).requests_total).toBe(1);

    // 3. Sign in by pasting the copied key.
    await page.goto("/signin");
    await page.getByLabel("API key", { exact: true }).fill(copied);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByTestId("key-name")).toHaveText("browser journey");
    await expect(page.getByTestId("key-prefix")).toHaveText(`${key.slice(0, 12)}…`);
    await expect(page.getByRole("alert").filter({ hasText: /expires in (19|20) days/ })).toBeVisible();
    // Signing in is not an API request: still 1.
    const total = page.getByTestId("requests-total");
    await expect(total).toHaveText("1");

    // The session cookie is httpOnly and holds no key.
    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name.includes("next-auth.session-token"));
    expect(session?.httpOnly).toBe(true);
    expect(session?.value).not.toContain(key);
    expect(JSON.stringify(cookies)).not.toContain(key.slice(4));
    expect(await page.evaluate(() => document.cookie)).not.toContain("session-token");

    // 4. Playground: translate en → lug with provider auto.
    const translate = page.getByRole("form", { name: "Translate a text" });
    await translate.getByLabel("Text").fill("Good morning, how are you?");
    await translate.getByLabel("From").selectOption("en");
    await translate.getByLabel("To").selectOption("lug");
    await translate.getByLabel("Provider").selectOption("auto");
    await translate.getByRole("button", { name: "Translate" }).click();
    const result = page.getByTestId("translate-result");
    await expect(result).toBeVisible();
    await expect(page.getByTestId("translated-text")).not.toBeEmpty();
    for (const field of ["detected_source_lang", "target_lang", "model_used", "provider", "quality_score", "latency_ms", "characters_translated"]) {
      await expect(result.locator(`dd[data-field="${field}"]`), field).toBeVisible();
    }
    await expect(result.locator('dd[data-field="provider"]')).toContainText("provider_a");
    await expect(result.locator('dd[data-field="model_used"]')).toContainText("provider_a/");
    await expect(result.getByTestId("quality-band")).toHaveText("Excellent");
    await expect(result.locator('dd[data-field="latency_ms"]')).toContainText(/\d+ ms/);
    await expect(result).toContainText("Sandbox output — not a real translation");
    // requests_total grows (the page refreshes its server data after each call) and the budget is shown.
    await expect(total).toHaveText("2");
    await expect(page.getByTestId("remaining-translate")).toHaveText("59");

    // Forcing a provider that does not serve the pair: the API's 422 is shown inline.
    await translate.getByLabel("Provider").selectOption("provider_b");
    await translate.getByRole("button", { name: "Translate" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "PROVIDER_UNSUPPORTED_PAIR" })).toBeVisible();
    await expect(total).toHaveText("3");
    await translate.getByLabel("Provider").selectOption("auto");
    await translate.getByRole("button", { name: "Translate" }).click();
    await expect(result).toBeVisible();
    await expect(total).toHaveText("4");

    // 5. Speak the translation (POST /speech/tts, Accept: audio/wav) and play it.
    await result.getByRole("button", { name: "Speak" }).click();
    const audio = page.getByTestId("tts-audio");
    await expect(audio).toBeVisible();
    await expect
      .poll(() => audio.evaluate((el: HTMLAudioElement) => (Number.isFinite(el.duration) ? el.duration : 0)), { message: "audio has a duration" })
      .toBeGreaterThan(0);
    await expect(total).toHaveText("5");

    // 6. Batch (its own tab): one line per item.
    await page.getByRole("tab", { name: "Batch" }).click();
    const batch = page.getByRole("form", { name: "Translate a batch" });
    await batch.getByLabel("Texts, one per line").fill("Good morning\nThank you very much\n\nWhere is the market?");
    await batch.getByLabel("From").selectOption("en");
    await batch.getByLabel("To").selectOption("sw");
    await batch.getByRole("button", { name: "Translate 3 lines" }).click();
    const batchResult = page.getByTestId("batch-result");
    await expect(batchResult).toContainText("3 of 3 succeeded, 0 failed");
    await expect(batchResult.locator("tbody tr")).toHaveCount(3);
    await expect(total).toHaveText("6");
    await expect(page.getByTestId("remaining-batch")).toHaveText("9");

    // 7. Usage chart: today's bar, its tooltip and the table agree with the counters (the 422 is today's one error).
    await expect(page.getByTestId("usage-totals")).toContainText("Requests6");
    await page.getByTestId("usage-bar").last().hover();
    await expect(page.getByTestId("usage-tooltip")).toContainText("6 requests");
    await page.getByText("Show the numbers as a table").click();
    const today = new Date().toISOString().slice(0, 10);
    const row = page.getByRole("row", { name: new RegExp(today) });
    // Cells: requests, upstream calls, errors, characters, cache hits.
    await expect(row.getByRole("cell").first()).toHaveText("6");
    await expect(row.getByRole("cell").nth(1)).not.toHaveText("0");
    await expect(row.getByRole("cell").nth(2)).toHaveText("1");
    await expect(row.getByRole("cell").nth(3)).not.toHaveText("0");
    await screenshot(page, "dashboard-after-playground-desktop");

    // 8. Revoke, with confirmation; then signed out, and the API refuses the key.
    await page.getByRole("button", { name: "Revoke this key…" }).click();
    const dialog = page.getByRole("dialog", { name: /Revoke “browser journey”/ });
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
    await page.getByRole("button", { name: "Revoke this key…" }).click();
    await dialog.getByRole("button", { name: "Revoke key" }).click();
    await expect(page).toHaveURL(/\/\?revoked=1$/);
    await expect(page.getByTestId("toasts")).toContainText("Key revoked");
    expect(await page.evaluate(() => window.scrollY), "the confirmation page opens at its top").toBe(0);
    await expect(page.getByRole("status").filter({ hasText: "Your key has been revoked" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);

    const refused = await api.get("/api/v1/auth/keys/me", { headers: { Authorization: `Bearer ${key}` } });
    expect(refused.status()).toBe(401);
    expect((await refused.json()).detail.code).toBe("INVALID_API_KEY");
    const refusedTranslate = await api.post("/api/v1/translate", {
      headers: { Authorization: `Bearer ${key}` },
      data: { text: "hello", target_lang: "lug" },
    });
    expect(refusedTranslate.status()).toBe(401);

    // The dashboard is closed, and the revoked key cannot sign in again.
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/signin/);
    await page.getByLabel("API key", { exact: true }).fill(key);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page.getByRole("alert").filter({ hasText: "That key was not accepted" })).toContainText("unknown, expired or revoked");
  });
});

test.describe("sessions and the playground key", () => {
  test("open the dashboard from the form; a new tab asks for the key; a key revoked elsewhere ends the session", async ({ page, context, api }) => {
    await page.goto("/");
    await page.getByLabel("Key name").fill("session semantics");
    await page.getByRole("button", { name: "Create key" }).click();
    const key = (await page.getByTestId("issued-key").textContent())!.trim();
    expect(key).toMatch(KEY_RE);

    // Straight from the form to the dashboard: the playground already has the key (this tab's sessionStorage).
    await page.getByRole("button", { name: "Open the dashboard with this key" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByText(`Calling the API as ${key.slice(0, 12)}…`)).toBeVisible();

    // Another tab shares the session cookie but not the key: the playground asks for it, and checks it is this key.
    const other = await context.newPage();
    await other.goto("/dashboard");
    const gate = other.getByRole("form", { name: "Unlock the playground" });
    await expect(gate).toBeVisible();
    const otherKey = `svc_${"0".repeat(40)}`;
    await gate.getByLabel(/API key/).fill(otherKey);
    await gate.getByRole("button", { name: "Use this key" }).click();
    await expect(gate.getByRole("alert")).toContainText("not the key you signed in with");
    await gate.getByLabel(/API key/).fill(key);
    await gate.getByRole("button", { name: "Use this key" }).click();
    await expect(other.getByRole("form", { name: "Translate a text" })).toBeVisible();
    // "Forget key" removes it from this tab.
    await other.getByRole("button", { name: "Forget key" }).click();
    await expect(other.getByRole("form", { name: "Unlock the playground" })).toBeVisible();
    expect(await other.evaluate(() => sessionStorage.length)).toBe(0);
    await other.close();

    // Revoked through the API (DELETE /auth/keys/me) while signed in: the next page view ends the session.
    const revoke = await api.delete("/api/v1/auth/keys/me", { headers: { Authorization: `Bearer ${key}` } });
    expect(revoke.status()).toBe(200);
    await page.reload();
    await expect(page).toHaveURL(/\/signin\?ended=revoked$/);
    await expect(page.getByRole("status").filter({ hasText: "has been revoked" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
  });
});
