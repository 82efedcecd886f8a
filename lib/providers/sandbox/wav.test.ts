import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AudioFixtures, audioFixtures, liveRecorderWebm, removeAudioFixtures } from "@/e2e/support/audio";
import { measuredSeconds } from "./wav";

let fx: AudioFixtures;
beforeAll(async () => {
  fx = await audioFixtures();
}, 60_000);
afterAll(removeAudioFixtures);

describe("the speech emulators measure a recording as an upstream's decoder would", () => {
  it("a WAV by its header, an OGG/Opus by its metadata", async () => {
    expect(Math.abs((await measuredSeconds(fx.files.wav.bytes))! - fx.durationSeconds)).toBeLessThan(0.01);
    expect(Math.abs((await measuredSeconds(fx.files.ogg.bytes))! - fx.durationSeconds)).toBeLessThan(0.15);
  });

  it("a browser's MediaRecorder WebM (clusters of unknown size) by decoding it; bytes that are no audio not at all", async () => {
    const seconds = await measuredSeconds(liveRecorderWebm(fx.streamed.webm.bytes).bytes);
    expect(Math.abs(seconds! - fx.durationSeconds)).toBeLessThan(0.15);
    expect(await measuredSeconds(new TextEncoder().encode("not audio at all"))).toBeUndefined();
  });
});
