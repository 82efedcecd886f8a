import { ISSUANCE_LIMIT } from "./constants";
import { expect, KEY_RE, screenshot, test } from "./fixtures";

/** The key form reports the API's validation (422 detail.errors) and throttling (429 + Retry-After) inline. */
test.describe("key issuance form", () => {
  test.use({ allowConsoleErrors: { patterns: [/status of (422|429) .*@ .*\/api\/v1\/auth\/keys$/] } });

  test("invalid names and lifetimes are shown next to their fields", async ({ page }) => {
    await page.goto("/");
    const name = page.getByLabel("Key name");
    const days = page.getByLabel("Expires in (days)");
    const create = page.getByRole("button", { name: "Create key" });

    // Empty (after trimming) name.
    await name.fill("   ");
    await create.click();
    await expect(name).toHaveAttribute("aria-invalid", "true");
    await expect(name).toBeFocused();
    const nameError = page.locator(`#${await name.getAttribute("aria-describedby")}`);
    await expect(nameError).toHaveText("Name must not be empty");

    // Too long.
    await name.fill("x".repeat(101));
    await create.click();
    await expect(nameError).toHaveText("Name must be at most 100 characters");

    // A lifetime out of range: the error is on that field, the name is fine now.
    await name.fill("valid name");
    await days.fill("400");
    await create.click();
    await expect(days).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByText("Must be at most 365 days")).toBeVisible();
    await expect(name).not.toHaveAttribute("aria-invalid", "true");
    await screenshot(page, "home-validation-errors-desktop");

    // Corrected: the key is issued.
    await days.fill("30");
    await create.click();
    await expect(page.getByTestId("issued-key")).toHaveText(KEY_RE);
    await expect(days).not.toHaveAttribute("aria-invalid", "true");
  });

  test("throttling is shown with the Retry-After wait, and the button waits too", async ({ page }) => {
    await page.goto("/");
    const name = page.getByLabel("Key name");
    const create = page.getByRole("button", { name: "Create key" });
    for (let i = 1; i <= ISSUANCE_LIMIT; i++) {
      await name.fill(`throttle ${i}`);
      await create.click();
      await expect(page.getByTestId("issued-key-panel")).toContainText(`throttle ${i}`);
    }
    await name.fill("one too many");
    await create.click();
    const alert = page.getByRole("alert").filter({ hasText: "Too many keys were created from your network address" });
    await expect(alert).toBeVisible();
    await expect(alert).toContainText(/HTTP 429, Retry-After: \d+ s/);
    await expect(alert).toContainText(/You can create another in \d+ min/);
    await expect(create).toBeDisabled();
    await screenshot(page, "home-throttled-desktop");
  });
});
