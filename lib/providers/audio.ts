/** Identifies common audio containers by magic bytes. */
export function sniffAudioType(bytes: Uint8Array): string | undefined {
  const tag = String.fromCharCode(...bytes.subarray(0, 4));
  if (tag === "RIFF" && String.fromCharCode(...bytes.subarray(8, 12)) === "WAVE") return "audio/wav";
  if (tag === "fLaC") return "audio/flac";
  if (tag === "OggS") return "audio/ogg";
  if (tag.startsWith("ID3") || (bytes[0] === 0xff && (bytes[1] & 0xe0) === 0xe0)) return "audio/mpeg";
  if (String.fromCharCode(...bytes.subarray(4, 8)) === "ftyp") return "audio/mp4";
  if (bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3) return "audio/webm";
  return undefined;
}

/** Largest synthesized audio accepted from a provider (2000 characters of 24 kHz speech is about 6 MB). */
export const MAX_AUDIO_BYTES = 25 * 1024 * 1024;

const EXTENSIONS: Record<string, string> = {
  "audio/wav": "wav",
  "audio/x-wav": "wav",
  "audio/wave": "wav",
  "audio/mpeg": "mp3",
  "audio/ogg": "ogg",
  "audio/flac": "flac",
  "audio/mp4": "m4a",
  "audio/x-m4a": "m4a",
  "audio/aac": "aac",
  "audio/webm": "webm",
};

/** A file name for a multipart upload; Sunbird checks the extension and type of the uploaded file. */
export function audioFileName(contentType: string): string {
  return `audio.${EXTENSIONS[contentType.split(";")[0].trim().toLowerCase()] ?? "bin"}`;
}
