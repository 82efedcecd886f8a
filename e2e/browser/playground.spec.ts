import { expect, expectAccessible, issueKey, signIn, test, VIEWPORTS } from "./fixtures";

/** A one-second 440 Hz tone as 16 kHz mono 16-bit WAV: a real recording for the Transcribe tab's upload. */
function toneWav(): Buffer {
  const rate = 16_000;
  const samples = rate;
  const wav = Buffer.alloc(44 + samples * 2);
  wav.write("RIFF", 0);
  wav.writeUInt32LE(36 + samples * 2, 4);
  wav.write("WAVEfmt ", 8);
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20);
  wav.writeUInt16LE(1, 22);
  wav.writeUInt32LE(rate, 24);
  wav.writeUInt32LE(rate * 2, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write("data", 36);
  wav.writeUInt32LE(samples * 2, 40);
  for (let i = 0; i < samples; i++) wav.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / rate)), 44 + i * 2);
  return wav;
}

test.describe("playground tabs", () => {
  test("Translate, Batch, Detect, Speak and Transcribe as tabs: keyboard, detect with Copy and View code, a voice, an upload and a recording sent as WAV, accessible at both widths", async ({
    page,
    api,
    context,
    baseURL,
  }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write", "microphone"], { origin: baseURL! });
    const key = await issueKey(api, "tabs");
    await signIn(page, key);
    const tablist = page.getByRole("tablist", { name: "Playground" });
    await expect(tablist.getByRole("tab")).toHaveText(["Translate", "Batch", "Detect", "Speak", "Transcribe"]);
    await expect(page.getByRole("form", { name: "Translate a text" })).toBeVisible();
    await expect(page.getByRole("form", { name: "Translate a batch" })).toBeHidden();

    // Keyboard: arrow keys move between the tabs and select them.
    await tablist.getByRole("tab", { name: "Translate" }).focus();
    await page.keyboard.press("ArrowRight");
    await expect(tablist.getByRole("tab", { name: "Batch" })).toBeFocused();
    await expect(tablist.getByRole("tab", { name: "Batch" })).toHaveAttribute("aria-selected", "true");
    await expect(page.getByRole("form", { name: "Translate a batch" })).toBeVisible();

    // Detect: the language, how sure, and the candidates.
    await page.keyboard.press("ArrowRight");
    const detect = page.getByRole("form", { name: "Detect a language" });
    await detect.getByLabel("Text").fill("Abaana bagenda ku ssomero buli lunaku.");
    await detect.getByRole("button", { name: "Detect" }).click();
    await expect(page.getByTestId("detect-result")).toContainText("Luganda (lug)");
    // Copy and View code: the request as curl, the typed client and Python, with the key filled in.
    const detectPanel = page.getByRole("tabpanel", { name: "Detect" });
    await detectPanel.getByRole("button", { name: "Copy the response (JSON)" }).click();
    await expect(page.getByTestId("toasts")).toContainText("Copied to the clipboard");
    expect(JSON.parse(await page.evaluate(() => navigator.clipboard.readText()))).toMatchObject({ language: "lug" });
    await detectPanel.getByText("View code").click();
    const code = detectPanel.getByTestId("view-code");
    await expect(code).toContainText(`curl ${baseURL}/api/v1/detect`);
    await expect(code).toContainText(`Authorization: Bearer ${key}`);
    await expect(code).toContainText(`createLughaClient({ baseUrl: "${baseURL}", apiKey: "${key}" })`);
    await expect(code).toContainText("requests.post(");

    // Transcribe: upload a WAV file.
    await tablist.getByRole("tab", { name: "Transcribe" }).click();
    const transcribe = page.getByRole("form", { name: "Transcribe a recording" });
    await transcribe.getByLabel(/Recording/).setInputFiles({ name: "tone.wav", mimeType: "audio/wav", buffer: toneWav() });
    await transcribe.getByRole("button", { name: "Transcribe" }).click();
    await expect(page.getByTestId("transcribe-result")).toBeVisible();

    // Or record in the browser: the recording is converted to WAV before it is sent.
    await transcribe.getByRole("button", { name: "Record from the microphone" }).click();
    await expect(transcribe.getByRole("button", { name: "Stop recording" })).toBeVisible();
    await page.waitForTimeout(1200);
    await transcribe.getByRole("button", { name: "Stop recording" }).click();
    await expect(page.getByTestId("chosen-audio")).toContainText("recording.wav");
    await transcribe.getByRole("button", { name: "Transcribe" }).click();
    // The API recognises the format from the bytes it received.
    await expect(page.getByTestId("transcribe-result")).toContainText("received as audio/wav");
    await expect(page.getByTestId("requests-total")).toHaveText("3");

    // Speak: only languages with voices, and a voice picker.
    // Every source language the (now hidden) Translate tab offers, for comparison.
    const allLanguages = await page.locator("form[aria-label='Translate a text'] select").first().locator("option").count();
    await tablist.getByRole("tab", { name: "Speak" }).click();
    const speak = page.getByRole("form", { name: "Speak a text" });
    const spoken = await speak.getByLabel("Language").locator("option").count();
    expect(spoken).toBeGreaterThan(0);
    expect(spoken).toBeLessThan(allLanguages);
    await speak.getByLabel("Language").selectOption("lug");
    const voices = speak.getByLabel("Voice").locator("option");
    expect(await voices.count()).toBeGreaterThan(1);
    await speak.getByLabel("Voice").selectOption({ index: 1 });
    await page.getByRole("tabpanel", { name: "Speak" }).getByRole("button", { name: "Speak" }).click();
    await expect(page.getByRole("tabpanel", { name: "Speak" }).getByTestId("tts-audio")).toBeVisible();
    await expect(page.getByTestId("requests-total")).toHaveText("4");
    await tablist.getByRole("tab", { name: "Detect" }).click(); // View code open, for the accessibility check

    for (const vp of VIEWPORTS) {
      await page.setViewportSize({ width: vp.width, height: vp.height });
      await expectAccessible(page, `playground, Transcribe tab, at ${vp.width}px`);
    }
  });
});
