/**
 * Recording from the microphone in the playground (MediaRecorder): which container to ask the browser for, what to
 * call the file, and what to tell a person when there is no microphone. Client-safe, and free of browser globals so it
 * is tested in Node. The recording is uploaded as the browser made it: the API decodes WebM/Opus and Ogg/Opus itself
 * and cuts long recordings into windows for each provider.
 */

/**
 * What the recorder asks for, best first: Opus in WebM (Chromium, Firefox) or Ogg (Firefox), which the API decodes;
 * then MP4/AAC (Safari), which the API passes to the providers whole (one window at most); then whatever WebM the
 * browser offers.
 */
const PREFERRED_TYPES = ["audio/webm;codecs=opus", "audio/ogg;codecs=opus", "audio/mp4", "audio/webm"] as const;

/** Opus at this rate is clear speech and keeps a 10-minute recording near 2.4 MB, under every upload limit. */
export const RECORDING_BITS_PER_SECOND = 32_000;

/**
 * The first preferred type the browser records (`isTypeSupported` is MediaRecorder.isTypeSupported), or undefined:
 * then the recorder is made without one and records in the browser's own default.
 */
export function recordingMimeType(isTypeSupported: ((type: string) => boolean) | undefined): string | undefined {
  if (!isTypeSupported) return undefined;
  return PREFERRED_TYPES.find((type) => {
    try {
      return isTypeSupported(type);
    } catch {
      return false;
    }
  });
}

/** The file extension for what a recorder made (its `mimeType`, parameters and all): "webm", "ogg", "m4a"; "audio" if unknown. */
export function recordingExtension(mimeType: string): string {
  const type = mimeType.split(";")[0].trim().toLowerCase();
  if (type === "audio/webm" || type === "video/webm") return "webm";
  if (type === "audio/ogg") return "ogg";
  if (type === "audio/mp4" || type === "video/mp4" || type === "audio/aac") return "m4a";
  return "audio";
}

/**
 * What to tell a person when getUserMedia (or the recorder) failed, by the DOMException's name: refused, no microphone,
 * microphone busy, or no recording at all on this page. Every message ends by pointing at the file upload, which works
 * regardless.
 */
export function microphoneProblem(error: unknown): string {
  const name =
    error instanceof Error || (typeof error === "object" && error !== null && "name" in error) ? String((error as { name: unknown }).name) : "";
  switch (name) {
    case "NotAllowedError":
    case "SecurityError":
      return "Microphone access was refused. Allow it for this site in the browser's settings, or upload a file instead.";
    case "NotFoundError":
    case "OverconstrainedError":
      return "No microphone was found. Connect one, or upload a file instead.";
    case "NotReadableError":
    case "AbortError":
      return "The microphone could not be started (another program may be using it). Upload a file instead.";
    case "Unsupported":
      return "This browser cannot record here (recording needs a recent browser and an https page). Upload a file instead.";
    default:
      return "The recording could not be started. Upload a file instead.";
  }
}

/** "0:07", "10:00": a recording's elapsed time as a clock. */
export function recordingClock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}
