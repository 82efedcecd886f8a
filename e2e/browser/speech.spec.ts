import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Download, Locator, Page } from "@playwright/test";
import { speak } from "../support/espeak";
import { SPEECH_MAX_AUDIO_SECONDS } from "./constants";
import {
  ARTIFACTS,
  test as base,
  brokenWords,
  expect,
  expectAccessible,
  expectNoSidewaysScroll,
  issueKey,
  screenshot,
  signIn,
  VIEWPORTS,
} from "./fixtures";

/**
 * The playground's speech tabs as a person uses them, in a Chromium whose fake microphone plays speech: eSpeak NG's
 * WAV, generated here and given to Chromium with --use-file-for-fake-audio-capture (it loops), so MediaRecorder makes
 * a real WebM/Opus of real speech. That flag is fixed when the browser starts, so this file launches its own browser
 * (the `browser` fixture below, with the config's launch options and the flag); Playwright runs it in its own worker.
 *
 * Transcribe records, shows the time, stops on Stop, at the server's length limit (SPEECH_MAX_AUDIO_SECONDS, low on the
 * test server) and when the tab is left, releasing the microphone each time, and uploads the WebM as it was recorded.
 * Speak answers in WAV, MP3 and Ogg/Opus: each plays (the audio element reads a duration), and downloads under the
 * format's extension with the format's bytes.
 */

const SENTENCE = "Good morning. Please send me a voice note about the market prices today.";

const test = base.extend<object, { microphone: string }>({
  microphone: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this destructuring; this one has none
    async ({}, use) => {
      const dir = mkdtempSync(path.join(tmpdir(), "lugha-microphone-"));
      const file = path.join(dir, "speech.wav");
      await speak(SENTENCE, file);
      await use(file);
      rmSync(dir, { recursive: true, force: true });
    },
    { scope: "worker" },
  ],
  browser: [
    async ({ playwright, launchOptions, headless, microphone }, use) => {
      const browser = await playwright.chromium.launch({
        ...launchOptions,
        headless,
        args: [...(launchOptions.args ?? []), `--use-file-for-fake-audio-capture=${microphone}`],
      });
      await use(browser);
      await browser.close();
    },
    { scope: "worker" },
  ],
});

/**
 * Watches the page's side of the microphone and the upload: every MediaStream getUserMedia hands the page (so the test
 * can ask whether its tracks have ended), and the `audio` file of each form the page fetches with (the browser's network
 * events carry no multipart body with a file in it).
 */
function watchPage(page: Page) {
  return page.addInitScript(() => {
    const seen = { streams: [] as MediaStream[], uploads: [] as { name: string; type: string; base64: string }[] };
    (window as unknown as { lughaSeen: typeof seen }).lughaSeen = seen;
    const getUserMedia = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
    navigator.mediaDevices.getUserMedia = async (constraints) => {
      const stream = await getUserMedia(constraints);
      seen.streams.push(stream);
      return stream;
    };
    const fetch = window.fetch.bind(window);
    window.fetch = async (input, init) => {
      const audio = init?.body instanceof FormData ? init.body.get("audio") : null;
      if (audio instanceof File) {
        let binary = "";
        for (const byte of new Uint8Array(await audio.arrayBuffer())) binary += String.fromCharCode(byte);
        seen.uploads.push({ name: audio.name, type: audio.type, base64: btoa(binary) });
      }
      return fetch(input, init);
    };
  });
}

/** The audio files the page has uploaded, in order. */
const uploads = (page: Page) =>
  page
    .evaluate(() => (window as unknown as { lughaSeen: { uploads: { name: string; type: string; base64: string }[] } }).lughaSeen.uploads)
    .then((list) => list.map((u) => ({ name: u.name, type: u.type, bytes: Buffer.from(u.base64, "base64") })));

/** How many microphone streams the page opened, and how many of their tracks still run. */
const microphoneState = (page: Page) =>
  page.evaluate(() => {
    const { streams } = (window as unknown as { lughaSeen: { streams: MediaStream[] } }).lughaSeen;
    return { opened: streams.length, live: streams.flatMap((s) => s.getTracks()).filter((t) => t.readyState === "live").length };
  });

async function downloaded(download: Download): Promise<Buffer> {
  return Buffer.concat(await (await download.createReadStream()).toArray());
}

/** The element is shown, inside the viewport's width, and at least `minHeight` px tall (a target a finger can hit). */
async function expectUsable(page: Page, locator: Locator, what: string, minHeight = 24) {
  await expect(locator, what).toBeVisible();
  const box = (await locator.boundingBox())!;
  const width = page.viewportSize()!.width;
  expect(box.x, `${what}: left edge`).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, `${what}: right edge at ${width}px`).toBeLessThanOrEqual(width);
  expect(box.height, `${what}: height`).toBeGreaterThanOrEqual(minHeight);
}

test.describe("playground speech: recording from the microphone and speaking in three formats", () => {
  test.beforeEach(async ({ context, baseURL }) => {
    await context.grantPermissions(["microphone"], { origin: baseURL! });
  });

  test("Transcribe: a recording of speech, timed and stopped, uploaded as the WebM/Opus MediaRecorder made, transcribed and shown", async ({
    page,
    api,
    baseURL,
  }) => {
    const key = await issueKey(api, "record");
    await watchPage(page);
    await signIn(page, key);
    await page.getByRole("tablist", { name: "Playground" }).getByRole("tab", { name: "Transcribe" }).click();
    const form = page.getByRole("form", { name: "Transcribe a recording" });
    const panel = page.getByRole("tabpanel", { name: "Transcribe" });
    await form.getByLabel("Language spoken").selectOption("lug");
    await expect(form.getByLabel(/^Recording/)).toHaveAccessibleDescription(
      `Up to 10 MB and ${SPEECH_MAX_AUDIO_SECONDS} s of audio per request on this server.`,
    );

    // Recording, as a phone shows it (the desktop width is seen in the next test): Stop and the time recorded.
    await page.setViewportSize({ width: 390, height: 844 });
    await form.getByRole("button", { name: "Record from the microphone" }).click();
    const time = form.getByTestId("recording-time");
    await expect(form.getByTestId("recorder-status")).toHaveText("Recording… speak now.");
    await expect(form).toContainText(`of at most 0:${SPEECH_MAX_AUDIO_SECONDS}`);
    await expectUsable(page, form.getByRole("button", { name: "Stop recording" }), "Stop at 390px", 36);
    await expectUsable(page, time, "the time recorded at 390px", 16);
    await expectNoSidewaysScroll(page, "the Transcribe tab recording at 390px");
    await panel.screenshot({ path: path.join(ARTIFACTS, "speech-recording-phone.png") });
    // About three seconds of speech (the clock counts them), then Stop.
    await expect.poll(() => time.textContent(), { timeout: 15_000 }).toMatch(/^0:0[3-9]$/);
    await form.getByRole("button", { name: "Stop recording" }).click();
    await expect(form.getByTestId("recorder-status")).toHaveText(/^Recorded 0:0[3-9]\.$/);
    await expect(page.getByTestId("chosen-audio")).toHaveText(/^Ready to send: recording\.webm \(\d+(\.\d)? kB\)$/);
    // The microphone is released once the recording ends.
    expect(await microphoneState(page)).toEqual({ opened: 1, live: 0 });

    // The recording as the browser made it: WebM (EBML) carrying Opus, named and typed so.
    await form.getByRole("button", { name: "Transcribe" }).click();
    await expect.poll(async () => (await uploads(page)).length).toBe(1);
    const [upload] = await uploads(page);
    expect(upload.name).toBe("recording.webm");
    expect(upload.type).toMatch(/^audio\/webm;\s*codecs=opus$/i);
    expect(upload.bytes.subarray(0, 4).toString("hex"), "EBML").toBe("1a45dfa3");
    expect(upload.bytes.includes("A_OPUS"), "an Opus track").toBe(true);

    // What the server saw: WebM, about three seconds of it, transcribed (the sandbox's transcript states the seconds
    // it decoded from the upload).
    const result = page.getByTestId("transcribe-result");
    await expect(result.locator("[data-meta='Received as']")).toHaveText("audio/webm");
    const seconds = Number((await result.locator("[data-meta='Audio duration']").textContent())!.replace(/ s$/, ""));
    expect(seconds).toBeGreaterThan(2.5);
    expect(seconds).toBeLessThan(SPEECH_MAX_AUDIO_SECONDS);
    const transcript = await result.locator("p").first().textContent();
    expect(transcript).toMatch(/^\[sandbox:\w+ lug\] transcript of (\d+\.\d\d) s of audio #[0-9a-f]{8}$/);
    expect(Math.abs(Number(/of (\d+\.\d\d) s/.exec(transcript!)![1]) - seconds)).toBeLessThan(0.1);

    // View code names the file the playground sent, and "Save" gives that file.
    await panel.getByText("View code").click();
    await expect(panel.getByTestId("view-code")).toContainText("-F 'audio=@recording.webm'");
    await expect(panel.getByTestId("view-code")).toContainText(`curl -sS ${baseURL}/api/v1/speech/stt`);
    const [save] = await Promise.all([page.waitForEvent("download"), form.getByRole("link", { name: "Save recording.webm" }).click()]);
    expect(save.suggestedFilename()).toBe("recording.webm");
    const saved = await downloaded(save);
    expect(saved.subarray(0, 4).toString("hex")).toBe("1a45dfa3");
    expect(saved.equals(upload.bytes), "the saved file is the one uploaded").toBe(true);

    for (const vp of VIEWPORTS) {
      await page.setViewportSize({ width: vp.width, height: vp.height });
      await expectNoSidewaysScroll(page, `the Transcribe tab's result at ${vp.width}px`);
      expect(await brokenWords(result.getByTestId("response-meta")), `broken words at ${vp.width}px`).toEqual([]);
      await expectAccessible(page, `the Transcribe tab after a recording at ${vp.width}px`);
      await screenshot(page, `speech-transcribed-${vp.name}`);
    }
  });

  test("Transcribe: the recorder stops at the length limit and when the tab is left, releasing the microphone; refused access leaves the upload working", async ({
    page,
    api,
    microphone,
  }) => {
    const key = await issueKey(api, "limits");
    await watchPage(page);
    await signIn(page, key);
    const tabs = page.getByRole("tablist", { name: "Playground" });
    await tabs.getByRole("tab", { name: "Transcribe" }).click();
    const form = page.getByRole("form", { name: "Transcribe a recording" });
    await form.getByLabel("Language spoken").selectOption("lug");

    // Past the per-request limit: the recorder stops itself just before it, keeps what it has, and says why.
    await form.getByRole("button", { name: "Record from the microphone" }).click();
    await expectUsable(page, form.getByRole("button", { name: "Stop recording" }), "Stop at 1280px", 36);
    await expectUsable(page, form.getByTestId("recording-time"), "the time recorded at 1280px", 16);
    await page.getByRole("tabpanel", { name: "Transcribe" }).screenshot({ path: path.join(ARTIFACTS, "speech-recording-desktop.png") });
    await expect(form.getByTestId("recorder-status")).toHaveText(
      new RegExp(
        `^Stopped at 0:(${SPEECH_MAX_AUDIO_SECONDS - 1}|${SPEECH_MAX_AUDIO_SECONDS}): this server takes at most ${SPEECH_MAX_AUDIO_SECONDS} s of audio per request\\. The recording is ready to send\\.$`,
      ),
      { timeout: (SPEECH_MAX_AUDIO_SECONDS + 10) * 1000 },
    );
    expect(await microphoneState(page)).toEqual({ opened: 1, live: 0 });
    await form.getByRole("button", { name: "Transcribe" }).click();
    const duration = page.getByTestId("transcribe-result").locator("[data-meta='Audio duration']");
    await expect(duration).toHaveText(/ s$/);
    expect(Number((await duration.textContent())!.replace(/ s$/, ""))).toBeLessThanOrEqual(SPEECH_MAX_AUDIO_SECONDS);

    // Leaving the tab mid-recording stops it and releases the microphone; the recording waits on the tab.
    await form.getByRole("button", { name: "Record from the microphone" }).click();
    await expect(form.getByTestId("recording-time")).toHaveText("0:01");
    await tabs.getByRole("tab", { name: "Detect" }).click();
    await expect.poll(() => microphoneState(page)).toEqual({ opened: 2, live: 0 });
    await tabs.getByRole("tab", { name: "Transcribe" }).click();
    await expect(form.getByTestId("recorder-status")).toHaveText(
      /^Stopped at 0:0\d when you left the Transcribe tab\. The recording is ready to send\.$/,
    );
    await expect(form.getByRole("button", { name: "Record from the microphone" })).toBeVisible();

    // The browser refuses the microphone: the page says so, and a file upload still transcribes.
    await page.evaluate(() => {
      navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException("Permission denied", "NotAllowedError"));
    });
    await form.getByRole("button", { name: "Record from the microphone" }).click();
    await expect(form.getByTestId("recorder-status")).toHaveText(
      "Microphone access was refused. Allow it for this site in the browser's settings, or upload a file instead.",
    );
    await form.getByLabel(/^Recording/).setInputFiles({ name: "speech.wav", mimeType: "audio/wav", buffer: readFileSync(microphone) });
    await form.getByRole("button", { name: "Transcribe" }).click();
    await expect(page.getByTestId("transcribe-result").locator("[data-meta='Received as']")).toHaveText("audio/wav");
  });

  test.describe("Speak", () => {
    // The answers replaced, their object URLs revoked: loading one fails, as the test checks on purpose.
    test.use({ allowConsoleErrors: { patterns: [/^Failed to load resource: net::ERR_FILE_NOT_FOUND @ blob:/] } });

    test("Speak: WAV, MP3 and Ogg/Opus each play, state their size and duration, and download as .wav, .mp3 and .ogg with their bytes; usable at 390 and 1280 px", async ({
      page,
      api,
    }) => {
      test.setTimeout(180_000);
      const key = await issueKey(api, "speak formats");
      await signIn(page, key);
      await page.getByRole("tablist", { name: "Playground" }).getByRole("tab", { name: "Speak" }).click();
      const form = page.getByRole("form", { name: "Speak a text" });
      const panel = page.getByRole("tabpanel", { name: "Speak" });
      await form.getByLabel("Language").selectOption("lug");
      await form.getByLabel("Text").fill("Wasuze otya nno? Njagala okugula emmere mu katale.");
      const format = form.getByLabel("Audio format");
      await expect(format.locator("option")).toHaveText(["WAV", "MP3", "Ogg/Opus (voice note)"]);

      const cases = [
        { value: "wav", label: "WAV", type: "audio/wav", extension: "wav", raw: true },
        { value: "mp3", label: "MP3", type: "audio/mpeg", extension: "mp3", raw: true },
        { value: "opus", label: "Ogg/Opus (voice note)", type: "audio/ogg; codecs=opus", extension: "ogg", raw: true },
        // The JSON form: the format goes in the body's `format`, the audio comes back as base64.
        { value: "opus", label: "Ogg/Opus (voice note)", type: "audio/ogg; codecs=opus", extension: "ogg", raw: false },
        { value: "mp3", label: "MP3", type: "audio/mpeg", extension: "mp3", raw: false },
      ];
      const urls: string[] = [];
      for (const c of cases) {
        await format.selectOption({ label: c.label });
        await form.getByLabel(c.raw ? /^Raw audio/ : /^JSON/).check();
        const [request] = await Promise.all([
          page.waitForRequest((r) => r.url().endsWith("/api/v1/speech/tts") && r.method() === "POST"),
          panel.getByRole("button", { name: "Speak" }).click(),
        ]);
        if (c.raw) {
          expect(request.headers().accept).toBe(c.type);
          expect(request.postDataJSON()).not.toHaveProperty("format");
        } else {
          expect(request.headers().accept).toBe("application/json");
          expect(request.postDataJSON().format).toBe(c.value);
        }
        const where = `${c.label}, ${c.raw ? "raw" : "JSON"}`;
        const meta = panel.getByTestId("response-meta");
        await expect(meta.locator("[data-meta='Audio']")).toContainText(c.type);

        // It plays: the audio element reads a duration from the file, the one the answer states.
        const audio = panel.getByTestId("tts-audio");
        const played = await audio.evaluate(
          (el: HTMLAudioElement) =>
            new Promise<number>((resolve, reject) => {
              if (el.readyState >= HTMLMediaElement.HAVE_METADATA) return resolve(el.duration);
              el.addEventListener("loadedmetadata", () => resolve(el.duration), { once: true });
              el.addEventListener("error", () => reject(new Error(`the audio element cannot play it: ${el.error?.message}`)), { once: true });
            }),
        );
        const stated = Number((await meta.locator("[data-meta='Duration']").textContent())!.replace(/ s$/, ""));
        expect(stated, where).toBeGreaterThan(1);
        expect(Number.isFinite(played) && played > 0, `${where}: duration ${played}`).toBe(true);
        expect(Math.abs(played - stated), `${where}: played ${played} s, stated ${stated} s`).toBeLessThan(0.3);

        // Its download: the format's extension and media type, the bytes the answer carried, as many as the page says.
        const link = panel.getByTestId("tts-download");
        await expect(link).toHaveAttribute("download", `speech-lug.${c.extension}`);
        await expect(link).toHaveAttribute("type", c.type);
        const href = (await link.getAttribute("href"))!;
        expect(href).toMatch(/^blob:/);
        urls.push(href);
        const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
        expect(download.suggestedFilename()).toBe(`speech-lug.${c.extension}`);
        const bytes = await downloaded(download);
        const head = bytes.subarray(0, 4).toString("latin1");
        if (c.extension === "wav") expect(head, where).toBe("RIFF");
        if (c.extension === "ogg") expect(head, where).toBe("OggS");
        if (c.extension === "mp3")
          expect(head.startsWith("ID3") || (bytes[0] === 0xff && (bytes[1] & 0xe0) === 0xe0), `${where}: ${head}`).toBe(true);
        await expect(meta.locator("[data-meta='Audio']")).toContainText(`(${bytes.byteLength.toLocaleString("en-US")} bytes)`);
        await expect(link).toContainText(`Download speech-lug.${c.extension} (`);

        // View code asks for the same format and writes the same kind of file.
        await panel.getByText("View code").click();
        const code = panel.getByTestId("view-code");
        await expect(code).toContainText(c.raw ? `-H "Accept: ${c.type}"` : `"format":"${c.value}"`);
        await expect(code).toContainText(`speech.${c.extension}`);
        await panel.getByText("View code").click();
      }
      // Each answer's object URL is revoked when the next replaces it: the old ones no longer load, the last one does.
      const loads = await page.evaluate(
        (hrefs) =>
          Promise.all(
            hrefs.map(
              (h) =>
                new Promise<string>((resolve) => {
                  const probe = new Audio();
                  probe.onloadedmetadata = () => resolve("loads");
                  probe.onerror = () => resolve("revoked");
                  probe.src = h;
                }),
            ),
          ),
        urls,
      );
      expect(loads).toEqual([...urls.slice(0, -1).map(() => "revoked"), "loads"]);

      for (const vp of VIEWPORTS) {
        await page.setViewportSize({ width: vp.width, height: vp.height });
        await expectNoSidewaysScroll(page, `the Speak tab at ${vp.width}px`);
        await expectUsable(page, format, `the format choice at ${vp.width}px`, 36);
        await expectUsable(page, panel.getByRole("button", { name: "Speak" }), `Speak at ${vp.width}px`, 36);
        await expectUsable(page, panel.getByTestId("tts-audio"), `the player at ${vp.width}px`);
        await expectUsable(page, panel.getByTestId("tts-download"), `the download link at ${vp.width}px`, 44);
        expect((await panel.getByTestId("tts-audio").boundingBox())!.width, `the player's width at ${vp.width}px`).toBeGreaterThan(200);
        expect(await brokenWords(panel.getByTestId("response-meta")), `broken words at ${vp.width}px`).toEqual([]);
        expect(await brokenWords(form.locator("fieldset")), `broken words in the response form at ${vp.width}px`).toEqual([]);
        await expectAccessible(page, `the Speak tab at ${vp.width}px`);
        await screenshot(page, `speech-speak-${vp.name}`);
      }
    });
  });
});
