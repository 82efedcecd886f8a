import { describe, expect, it } from "vitest";
import { microphoneProblem, recordingClock, recordingExtension, recordingMimeType } from "./recording";

describe("recording from the microphone", () => {
  it("asks for Opus in WebM first, then Ogg, then Safari's MP4, and nothing when the browser cannot say", () => {
    expect(recordingMimeType((t) => t.startsWith("audio/webm"))).toBe("audio/webm;codecs=opus");
    expect(recordingMimeType((t) => t === "audio/ogg;codecs=opus")).toBe("audio/ogg;codecs=opus");
    expect(recordingMimeType((t) => t === "audio/mp4")).toBe("audio/mp4");
    expect(recordingMimeType((t) => t === "audio/webm")).toBe("audio/webm");
    expect(recordingMimeType(() => false)).toBeUndefined();
    expect(recordingMimeType(undefined)).toBeUndefined();
    expect(
      recordingMimeType(() => {
        throw new Error("broken");
      }),
    ).toBeUndefined();
  });

  it("names the file by what the recorder made", () => {
    expect(recordingExtension("audio/webm;codecs=opus")).toBe("webm");
    expect(recordingExtension("video/webm")).toBe("webm");
    expect(recordingExtension("audio/ogg; codecs=opus")).toBe("ogg");
    expect(recordingExtension("audio/mp4;codecs=mp4a.40.2")).toBe("m4a");
    expect(recordingExtension("")).toBe("audio");
  });

  it("says why the microphone is not there, and that the upload still works", () => {
    const named = (name: string) => Object.assign(new Error("x"), { name });
    expect(microphoneProblem(named("NotAllowedError"))).toMatch(/^Microphone access was refused\..*upload a file instead\.$/);
    expect(microphoneProblem(named("NotFoundError"))).toMatch(/^No microphone was found/);
    expect(microphoneProblem(named("NotReadableError"))).toMatch(/could not be started/);
    expect(microphoneProblem({ name: "Unsupported" })).toMatch(/cannot record here/);
    expect(microphoneProblem("what")).toBe("The recording could not be started. Upload a file instead.");
  });

  it("shows elapsed time as a clock", () => {
    expect([recordingClock(0), recordingClock(7.9), recordingClock(600), recordingClock(-1)]).toEqual(["0:00", "0:07", "10:00", "0:00"]);
  });
});
