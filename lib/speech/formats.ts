/**
 * The formats text-to-speech answers in. `wav` is the provider's own audio, passed through; `mp3` and `opus` are
 * encoded here, in-process (WebAssembly libopus, plain-JavaScript LAME: no ffmpeg), from the audio decoded to 16 kHz
 * mono — speech needs no more, and it keeps the answer small. Opus goes in an Ogg file: what WhatsApp and Telegram
 * play as a voice note.
 */
export const TTS_FORMATS = ["wav", "mp3", "opus"] as const;
export type TtsFormat = (typeof TTS_FORMATS)[number];

/** Each format's media type (the Content-Type of a raw answer and the `content_type` of a JSON one) and file extension. */
export const TTS_MEDIA_TYPES: Record<TtsFormat, { contentType: string; extension: string }> = {
  wav: { contentType: "audio/wav", extension: "wav" },
  mp3: { contentType: "audio/mpeg", extension: "mp3" },
  opus: { contentType: "audio/ogg; codecs=opus", extension: "ogg" },
};

/** Bit rates of the encoded formats: clear speech at 16 kHz mono, and what the size rule in ./limits counts on. */
export const OPUS_BITS_PER_SECOND = 24_000;
export const MP3_KBITS_PER_SECOND = 32;

/** The format a TTS answer's Content-Type (or JSON `content_type`) names, parameters aside; undefined for any other type. */
export function ttsFormatOf(contentType: string): TtsFormat | undefined {
  const base = (type: string) => type.split(";")[0].trim().toLowerCase();
  return TTS_FORMATS.find((f) => base(TTS_MEDIA_TYPES[f].contentType) === base(contentType));
}
