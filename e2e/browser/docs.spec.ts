import { expect, issueKey, screenshot, test } from "./fixtures";

/** /docs: Swagger UI on /api/v1/openapi.json, authorised with a real key, runs "Try it out" on POST /translate. */
test.describe("API reference", () => {
  test("loads every endpoint, authorises with a key and runs Try it out on /translate", async ({ page, api }) => {
    const key = await issueKey(api, "docs try-it-out");
    await page.goto("/docs");
    await expect(page.locator(".swagger-ui .info .title")).toContainText("Lugha API");
    await expect(page.locator(".swagger-ui .info .title")).toContainText("OAS 3.0");

    // All eight API endpoints (and key revocation, and the document itself).
    const operations = [
      ["post", "/api/v1/translate"],
      ["post", "/api/v1/translate/batch"],
      ["post", "/api/v1/speech/stt"],
      ["post", "/api/v1/speech/tts"],
      ["get", "/api/v1/languages"],
      ["post", "/api/v1/auth/keys"],
      ["get", "/api/v1/auth/keys/me"],
      ["delete", "/api/v1/auth/keys/me"],
      ["get", "/health"],
      ["get", "/api/v1/openapi.json"],
    ];
    for (const [method, path] of operations) {
      await expect(page.locator(`.opblock-${method} .opblock-summary-path[data-path="${path}"]`), `${method} ${path}`).toHaveCount(1);
    }

    // Authorize sits above the API's long description, in the first screen.
    const authorize = page.locator(".swagger-ui .auth-wrapper .btn.authorize");
    const [button, info] = [await authorize.boundingBox(), await page.locator(".swagger-ui .information-container").boundingBox()];
    expect(button!.y).toBeLessThan(info!.y);
    expect(button!.y).toBeLessThan(400);

    // Authorize: bearer with the key.
    await authorize.click();
    const modal = page.locator(".swagger-ui .modal-ux");
    await expect(modal).toBeVisible();
    // Two schemes are offered (the API key, and the operator token of /metrics): the key goes into the first.
    const apiKeyAuth = modal.locator(".auth-container").filter({ hasText: "bearerAuth" });
    await apiKeyAuth.getByLabel("auth-bearer-value").fill(key);
    await apiKeyAuth.getByRole("button", { name: "Apply credentials" }).click();
    await expect(apiKeyAuth.getByRole("button", { name: "Remove authorization" })).toBeVisible();
    await modal.getByRole("button", { name: "Close" }).first().click();
    await expect(modal).toBeHidden();

    // Open POST /api/v1/translate, Try it out with the prefilled example, Execute.
    const op = page.locator("#operations-Translation-translate");
    await op.locator(".opblock-summary-control").click();
    await op.getByRole("button", { name: "Try it out" }).click();
    const body = op.locator("textarea.body-param__text");
    await expect(body).toContainText('"target_lang"');
    await op.getByRole("button", { name: "Execute" }).click();

    const status = op.locator(".live-responses-table .response .response-col_status").first();
    await expect(status).toHaveText("200");
    await expect(op.locator(".live-responses-table .response-col_description").last()).toContainText("translated_text");
    await expect(op.locator(".curl-command")).toContainText(`Authorization: Bearer ${key}`);
    // Nothing the caller did not choose: no Cache-Control (which would bypass the translation cache on every try).
    await expect(op.locator(".curl-command")).not.toContainText("Cache-Control");
    await screenshot(page, "docs-try-it-out-desktop");

    // The same key is now counted: translate went through the real API.
    const me = await api.get("/api/v1/auth/keys/me", { headers: { Authorization: `Bearer ${key}` } });
    expect((await me.json()).requests_total).toBe(2);
  });

  test("the key this tab holds (minted on the home page) is filled in for Try it out", async ({ page, api }) => {
    const key = await issueKey(api, "docs prefill");
    await page.goto("/");
    await page.evaluate((k) => sessionStorage.setItem("lugha.playground.apiKey", k), key);
    await page.goto("/docs");
    await expect(page.locator(".swagger-ui .auth-wrapper .btn.authorize.locked")).toBeVisible();
    const op = page.locator("#operations-Translation-translate");
    await op.locator(".opblock-summary-control").click();
    await op.getByRole("button", { name: "Try it out" }).click();
    await op.getByRole("button", { name: "Execute" }).click();
    await expect(op.locator(".live-responses-table .response .response-col_status").first()).toHaveText("200");
    await expect(op.locator(".curl-command")).toContainText(`Authorization: Bearer ${key}`);
    // Nothing the caller did not choose: no Cache-Control (which would bypass the translation cache on every try).
    await expect(op.locator(".curl-command")).not.toContainText("Cache-Control");
  });
});
