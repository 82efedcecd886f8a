import { describe, expect, it } from "vitest";
import { prefersRawAudio, ttsFormatAccepted } from "./accept";

describe("prefersRawAudio (TTS content negotiation)", () => {
  it.each([
    [null, false],
    ["", false],
    ["*/*", false],
    ["application/json", false],
    ["audio/wav", true],
    ["audio/*", true],
    ["audio/mpeg", true],
    ["AUDIO/WAV", true],
    ["audio/wav, */*", true],
    ["*/*, audio/wav", true],
    ["application/json, audio/wav", false],
    ["audio/wav, application/json", false],
    ["application/json;q=0.5, audio/*", true],
    ["audio/*;q=0.5, application/json", false],
    ["audio/wav;q=0", false],
    ["text/html, audio/wav;q=0.9", true],
    ["application/*, audio/wav", false],
  ])("Accept: %s → raw audio %s", (accept, expected) => {
    expect(prefersRawAudio(accept)).toBe(expected);
  });
});

describe("ttsFormatAccepted (the format of a raw TTS answer)", () => {
  it.each([
    ["audio/ogg", "opus"],
    ["audio/ogg; codecs=opus", "opus"],
    ["audio/mpeg", "mp3"],
    ["audio/wav", "wav"],
    ["audio/x-wav", "wav"],
    ["audio/mpeg;q=0.5, audio/ogg;q=0.9", "opus"],
    ["audio/wav, audio/mpeg", "wav"],
    ["audio/*", undefined],
    ["audio/flac", undefined],
    ["application/json", undefined],
    [null, undefined],
  ])("Accept %s → %s", (accept, format) => {
    expect(ttsFormatAccepted(accept)).toBe(format);
  });
});
