import { expect, expectAccessible, expectNoSidewaysScroll, issueKey, screenshot, signIn, test, VIEWPORTS } from "./fixtures";

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
  test("Translate, Batch, Detect, Speak, Transcribe and Catalog as tabs: keyboard, detect with Copy and View code, a voice, an upload and a recording sent as WebM, accessible at both widths", async ({
    page,
    api,
    context,
    baseURL,
  }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write", "microphone"], { origin: baseURL! });
    const key = await issueKey(api, "tabs");
    await signIn(page, key);
    const tablist = page.getByRole("tablist", { name: "Playground" });
    await expect(tablist.getByRole("tab")).toHaveText(["Translate", "Batch", "Detect", "Speak", "Transcribe", "Catalog"]);
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
    // Copy and View code: the request as curl, fetch and the Python client, with the key filled in.
    const detectPanel = page.getByRole("tabpanel", { name: "Detect" });
    await detectPanel.getByRole("button", { name: "Copy the response (JSON)" }).click();
    await expect(page.getByTestId("toasts")).toContainText("Copied to the clipboard");
    expect(JSON.parse(await page.evaluate(() => navigator.clipboard.readText()))).toMatchObject({ language: "lug" });
    await detectPanel.getByText("View code").click();
    const code = detectPanel.getByTestId("view-code");
    await expect(code).toContainText(`curl -sS ${baseURL}/api/v1/detect`);
    await expect(code).toContainText(`Authorization: Bearer ${key}`);
    await expect(code).toContainText(`await fetch("${baseURL}/api/v1/detect"`);
    // The typed client is installed from the repository: never a registry name nobody at Lugha owns.
    await expect(code).toContainText("npm pack -w @lugha/client");
    await expect(code).not.toContainText(/npx|npm install @lugha/);
    await expect(code.getByRole("link", { name: "the guide" })).toHaveAttribute("href", "/docs/guide#installing-the-clients");
    await expect(code).toContainText(`client = lugha.Client("${key}", base_url="${baseURL}")`);
    await expect(code).toContainText("client.detect(");
    await expect(code).toContainText("pip install ./clients/python");
    await expect(detectPanel.getByTestId("response-meta")).toContainText(/Request id\s*req_/);

    // Transcribe: no language is preselected (it would be a guess); upload a WAV file.
    await tablist.getByRole("tab", { name: "Transcribe" }).click();
    const transcribe = page.getByRole("form", { name: "Transcribe a recording" });
    await expect(transcribe.getByLabel("Language spoken")).toHaveValue("");
    await transcribe.getByLabel("Language spoken").selectOption("lug");
    await transcribe.getByLabel(/Recording/).setInputFiles({ name: "tone.wav", mimeType: "audio/wav", buffer: toneWav() });
    await transcribe.getByRole("button", { name: "Transcribe" }).click();
    await expect(page.getByTestId("transcribe-result")).toBeVisible();
    await expect(page.getByTestId("transcribe-result").getByTestId("response-meta")).toContainText(/Provider.*Model.*Audio duration.*Request id/s);
    // View code for the multipart upload: the file by the name it was chosen under, the fields beside it.
    const transcribePanel = page.getByRole("tabpanel", { name: "Transcribe" });
    await transcribePanel.getByText("View code").click();
    const uploadCode = transcribePanel.getByTestId("view-code");
    await expect(uploadCode).toContainText(`curl -sS ${baseURL}/api/v1/speech/stt`);
    await expect(uploadCode).toContainText(`Authorization: Bearer ${key}`);
    await expect(uploadCode).toContainText("-F 'audio=@tone.wav'");
    await expect(uploadCode).toContainText(/-F 'language=[a-z]+'/);
    await expect(uploadCode).toContainText('form.set("audio", new Blob([await readFile("tone.wav")]), "tone.wav");');
    await expect(uploadCode).toContainText(`await fetch("${baseURL}/api/v1/speech/stt"`);
    await expect(uploadCode).toContainText('client.transcribe( "tone.wav", language="lug", )');
    // And for the tools that speak OpenAI's audio API: the same upload, the language in the model; at 390 px too.
    await expect(uploadCode).toContainText(`curl -sS ${baseURL}/compat/openai/v1/audio/transcriptions`);
    await expect(uploadCode).toContainText("-F 'file=@tone.wav' \\ -F model=lugha-stt-lg");
    await expect(uploadCode).toContainText('client.audio.transcriptions.create({ file: fs.createReadStream("tone.wav"), model: "lugha-stt-lg", })');
    await page.setViewportSize({ width: VIEWPORTS[1].width, height: VIEWPORTS[1].height });
    await expectNoSidewaysScroll(page, "Transcribe's View code at 390 px");
    await page.setViewportSize({ width: VIEWPORTS[0].width, height: VIEWPORTS[0].height });

    // Or record in the browser (this browser's fake microphone beeps; speech.spec.ts records speech): the recording is
    // sent as the browser made it, WebM/Opus in Chromium.
    await transcribe.getByRole("button", { name: "Record from the microphone" }).click();
    await expect(transcribe.getByRole("button", { name: "Stop recording" })).toBeVisible();
    await expect(transcribe.getByTestId("recording-time")).toHaveText("0:01");
    await transcribe.getByRole("button", { name: "Stop recording" }).click();
    await expect(page.getByTestId("chosen-audio")).toContainText("recording.webm");
    await transcribe.getByRole("button", { name: "Transcribe" }).click();
    // The API recognises the format from the bytes it received.
    await expect(page.getByTestId("transcribe-result").locator("[data-meta='Received as']")).toHaveText("audio/webm");
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
    await expect(speak.getByLabel("Text")).toHaveAccessibleDescription("16 / 5,000 characters");
    const speakPanel = page.getByRole("tabpanel", { name: "Speak" });
    await speakPanel.getByRole("button", { name: "Speak" }).click();
    await expect(speakPanel.getByTestId("tts-audio")).toBeVisible();
    await expect(page.getByTestId("requests-total")).toHaveText("4");
    // Raw audio (the default): what spoke it comes from the X-Lugha-* headers; View code asks for audio/wav.
    const spokenMeta = speakPanel.getByTestId("response-meta");
    await expect(spokenMeta).toContainText(/Provider.*Model.*Voice.*Duration.*raw audio.*Request id\s*req_/s);
    await speakPanel.getByText("View code").click();
    await expect(speakPanel.getByTestId("view-code")).toContainText('-H "Accept: audio/wav"');
    // The same speech through OpenAI's audio API, with the voice chosen: curl and OpenAI's Node SDK; at 390 px too.
    await expect(speakPanel.getByTestId("view-code")).toContainText(`curl -sS ${baseURL}/compat/openai/v1/audio/speech`);
    await expect(speakPanel.getByTestId("view-code")).toContainText(
      /'\{"model":"lugha-tts-lg","input":"[^"]+","voice":"[^"]+","response_format":"wav"\}' \\\s+-o speech\.wav/,
    );
    await expect(speakPanel.getByTestId("view-code")).toContainText("client.audio.speech.create(");
    await page.setViewportSize({ width: VIEWPORTS[1].width, height: VIEWPORTS[1].height });
    await expectNoSidewaysScroll(page, "Speak's View code at 390 px");
    await page.setViewportSize({ width: VIEWPORTS[0].width, height: VIEWPORTS[0].height });
    // The JSON form: the audio arrives as base64, decoded in the page; View code says so.
    await speak.getByLabel(/^JSON/).check();
    await speakPanel.getByRole("button", { name: "Speak" }).click();
    await expect(spokenMeta).toContainText("JSON, audio in audio_base64");
    await expect(speakPanel.getByTestId("tts-audio")).toBeVisible();
    await speakPanel.getByText("View code").click();
    await expect(speakPanel.getByTestId("view-code")).toContainText("jq -r .audio_base64");
    await expect(speakPanel.getByTestId("view-code")).toContainText("client.speak(");
    await expect(page.getByTestId("requests-total")).toHaveText("5");
    // Past the limit, the counter warns.
    await speak.getByLabel("Text").fill("a".repeat(5_001));
    await expect(speak.getByTestId("char-counter")).toContainText("1 over the limit");
    await tablist.getByRole("tab", { name: "Detect" }).click(); // View code open, for the accessibility check

    for (const vp of VIEWPORTS) {
      await page.setViewportSize({ width: vp.width, height: vp.height });
      await expectAccessible(page, `playground, Transcribe tab, at ${vp.width}px`);
    }
  });

  test("Catalog: a JSON catalog uploaded, translated into two languages, each result downloaded with its keys and placeholders", async ({
    page,
    api,
  }) => {
    const key = await issueKey(api, "catalog");
    await signIn(page, key);
    await page.getByRole("tablist", { name: "Playground" }).getByRole("tab", { name: "Catalog" }).click();
    const form = page.getByRole("form", { name: "Translate a catalog" });
    const source = { app: { title: "Welcome", greeting: "Hello, {{name}}!", items_one: "{{count}} item", items_other: "{{count}} items" } };
    await form
      .getByLabel("Catalog file")
      .setInputFiles({ name: "en.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(source, null, 2)) });
    await expect(form.getByLabel("Format")).toHaveValue("json");
    await form.getByLabel("Translate into").selectOption(["lug", "ach"]);
    await form.getByRole("button", { name: "Translate into 2 languages" }).click();
    const results = page.getByTestId("catalog-results");
    await expect(results).toContainText("Luganda: 4 translated, 0 kept, 0 pending, 0 failed of 4");
    await expect(results).toContainText("Acholi: 4 translated");
    const [download] = await Promise.all([page.waitForEvent("download"), results.getByRole("link", { name: "Download lug.json" }).click()]);
    expect(download.suggestedFilename()).toBe("lug.json");
    const translated = JSON.parse(await (await download.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString("utf8")));
    expect(Object.keys(translated.app)).toEqual(Object.keys(source.app));
    expect(translated.app.greeting).toMatch(/^\[sandbox:.*\] Hello, \{\{name\}\}!$/);
    for (const vp of VIEWPORTS) {
      await page.setViewportSize({ width: vp.width, height: vp.height });
      await expectAccessible(page, `playground, Catalog tab, at ${vp.width}px`);
    }
  });

  test("Translate with localisation: HTML format, a do-not-translate term and a glossary of the key, sent and shown; Batch takes the format", async ({
    page,
    api,
    baseURL,
  }) => {
    const key = await issueKey(api, "localise");
    const createGlossary = async (data: Record<string, unknown>) => {
      const res = await api.post("/api/v1/glossaries", { headers: { Authorization: `Bearer ${key}` }, data });
      expect(res.status(), await res.text()).toBe(201);
      return ((await res.json()) as { id: string }).id;
    };
    const shop = await createGlossary({ name: "shop", source_lang: "en", target_lang: "sw", entries: [{ source: "cart", target: "kikapu" }] });
    await createGlossary({ name: "clinic", source_lang: "en", target_lang: "yo", entries: [{ source: "nurse", target: "nọọsi" }] });
    await signIn(page, key);

    const form = page.getByRole("form", { name: "Translate a text" });
    await form.getByLabel("Text", { exact: true }).fill('Your <b>cart</b> is ready. Pay with M-Pesa. <img src="c.png" alt="Your cart">');
    await form.getByLabel("From").selectOption("en");
    await form.getByLabel("To", { exact: true }).selectOption("sw");
    await form.getByLabel(/^Format/).selectOption("html");
    await form.getByLabel(/^Do not translate/).fill("M-Pesa,\n Lugha");
    // Listed on demand (a request of the key), and only the glossaries for the chosen pair are offered.
    const glossary = form.getByLabel(/^Glossary/);
    await expect(glossary.locator("option")).toHaveText(["None"]);
    await form.getByRole("button", { name: "List my glossaries" }).click();
    await expect(glossary.locator("option")).toHaveText(["None", "shop (en → sw, 1 term)"]);
    await expect(form.getByText("1 of your glossaries is for en → sw; 1 for other pairs is not listed.")).toBeVisible();
    await glossary.selectOption(shop);
    await form.getByRole("button", { name: "Translate", exact: true }).click();

    // The sandbox echoes what it was sent: the markup, the kept term and the glossary's term come back in place, and
    // the alt attribute was a segment of its own (HTML format).
    const translated = page.getByTestId("translated-text");
    await expect(translated).toContainText("Your <b>kikapu</b> is ready. Pay with M-Pesa.");
    await expect(translated).toContainText('alt="[sandbox:');
    const result = page.getByTestId("translate-result");
    await expect(result.locator("[data-field=segments]")).toHaveText("2");
    await expect(result.locator("[data-field=glossary_terms_applied]")).toHaveText("kikapu");

    // View code carries the new fields, in all three languages.
    const panel = page.getByRole("tabpanel", { name: "Translate" });
    await panel.getByText("View code").click();
    const code = panel.getByTestId("view-code");
    await expect(code).toContainText(`"format":"html","do_not_translate":["M-Pesa","Lugha"],"glossary_id":"${shop}"`);
    await expect(code).toContainText(`"glossary_id": "${shop}"`);
    await expect(code).toContainText('"format": "html"');
    // And for the tools: MCP client settings, and the translate tool called with the same arguments.
    await expect(code).toContainText(`"url": "${baseURL}/mcp"`);
    await expect(code).toContainText(`name: "translate", arguments: {`);

    // No glossary and no terms: the fields are left out of the request.
    await glossary.selectOption("");
    await form.getByLabel(/^Do not translate/).fill(" , ");
    await form.getByLabel(/^Format/).selectOption("text");
    await form.getByRole("button", { name: "Translate", exact: true }).click();
    await expect(result.locator("[data-field=glossary_terms_applied]")).toHaveCount(0);
    await expect(code).not.toContainText("glossary_id");
    await expect(code).not.toContainText("do_not_translate");
    await expect(code).not.toContainText("format");

    // Batch: one format for the whole batch.
    await page.getByRole("tablist", { name: "Playground" }).getByRole("tab", { name: "Batch" }).click();
    const batch = page.getByRole("form", { name: "Translate a batch" });
    await batch.getByLabel(/^Format/).selectOption("markdown");
    await batch.getByRole("button", { name: /^Translate \d+ lines?$/ }).click();
    await expect(page.getByTestId("batch-result")).toContainText("3 of 3 succeeded");
    const batchPanel = page.getByRole("tabpanel", { name: "Batch" });
    await batchPanel.getByText("View code").click();
    await expect(batchPanel.getByTestId("view-code")).toContainText('"format":"markdown"');

    await page.getByRole("tablist", { name: "Playground" }).getByRole("tab", { name: "Translate" }).click();
    for (const vp of VIEWPORTS) {
      await page.setViewportSize({ width: vp.width, height: vp.height });
      await expectAccessible(page, `playground, Translate tab with localisation, at ${vp.width}px`);
      await screenshot(page, `playground-translate-localisation-${vp.name}`);
    }
  });
});
