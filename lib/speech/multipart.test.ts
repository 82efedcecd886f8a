/** The STT upload reader: multipart parsing under a byte cap, and every malformed-request case. */
import { describe, expect, it } from "vitest";
import { apiError } from "@/lib/kit/test-support";
import { makeWav } from "@/lib/providers/sandbox";
import { readSttUpload } from "./multipart";

const wav = makeWav({ durationSeconds: 0.5 });
const LIMIT = 64 * 1024;

function formRequest(fill: (f: FormData) => void, headers: Record<string, string> = {}): Request {
  const form = new FormData();
  fill(form);
  return new Request("http://test/api/v1/speech/stt", { method: "POST", body: form, headers });
}

function rawRequest(body: BodyInit | null, contentType?: string, extra: Record<string, string> = {}): Request {
  const headers: Record<string, string> = { ...extra };
  if (contentType) headers["content-type"] = contentType;
  return new Request("http://test/api/v1/speech/stt", { method: "POST", body, headers, duplex: "half" } as RequestInit);
}

describe("readSttUpload", () => {
  it("reads audio, language and provider; the declared type and name are kept only for information", async () => {
    const upload = await readSttUpload(
      formRequest((f) => {
        f.set("audio", new Blob([wav], { type: "application/octet-stream" }), "clip.bin");
        f.set("language", "lug");
        f.set("provider", "provider_a");
      }),
      LIMIT,
    );
    expect(upload).toMatchObject({ language: "lug", provider: "provider_a", fileName: "clip.bin", declaredType: "application/octet-stream" });
    expect(upload.audio).toEqual(wav);
  });

  it("provider defaults to auto; an empty provider field counts as absent", async () => {
    const upload = await readSttUpload(
      formRequest((f) => {
        f.set("audio", new Blob([wav]), "a.wav");
        f.set("language", "en");
        f.set("provider", "");
      }),
      LIMIT,
    );
    expect(upload.provider).toBe("auto");
  });

  it("415 for a body that is not multipart (JSON, raw audio, none)", async () => {
    for (const req of [
      rawRequest(JSON.stringify({ language: "lug" }), "application/json"),
      rawRequest(wav as Uint8Array<ArrayBuffer>, "audio/wav"),
      rawRequest(null),
      rawRequest("language=lug", "application/x-www-form-urlencoded"),
    ]) {
      expect(await apiError(readSttUpload(req, LIMIT))).toMatchObject({ code: "UNSUPPORTED_MEDIA_TYPE", status: 415 });
    }
  });

  it("422 for multipart without a boundary, with a wrong boundary, cut short, or empty", async () => {
    const cases = [
      rawRequest("--x\r\n", "multipart/form-data"),
      rawRequest('--abc\r\nContent-Disposition: form-data; name="language"\r\n\r\nlug\r\n--abc--\r\n', "multipart/form-data; boundary=xyz"),
      rawRequest(
        '--abc\r\nContent-Disposition: form-data; name="audio"; filename="a.wav"\r\nContent-Type: audio/wav\r\n\r\nRIFF',
        "multipart/form-data; boundary=abc",
      ),
      rawRequest("", "multipart/form-data; boundary=abc"),
    ];
    for (const req of cases) {
      const err = await apiError(readSttUpload(req, LIMIT));
      expect(err).toMatchObject({ code: "VALIDATION_ERROR", status: 422 });
      expect(err.options.errors?.[0]).toMatchObject({ loc: ["body"], type: "multipart_invalid" });
    }
  });

  it("422 when the audio field is missing or misnamed, saying what to send without quoting the fields received", async () => {
    const err = await apiError(
      readSttUpload(
        formRequest((f) => {
          f.set("<b>file</b>", new Blob([wav]), "a.wav");
          f.set("language", "lug");
        }),
        LIMIT,
      ),
    );
    expect(err).toMatchObject({ code: "VALIDATION_ERROR" });
    expect(err.options.errors).toEqual([{ loc: ["body", "audio"], msg: expect.stringContaining('a file field named "audio"'), type: "missing" }]);
    expect(JSON.stringify(err.options.errors) + err.message).not.toMatch(/<b>|file<\/b>/);
  });

  it.each([
    ["a preamble before the first boundary", "This is a preamble.\r\n", 'name="audio"; filename="a.wav"', "a.wav"],
    ["an RFC 5987 file name (filename*=)", "", "name=\"audio\"; filename*=UTF-8''s%C3%A9ance%20un.wav", "séance un.wav"],
    ["an escaped quote in the file name", "", 'name="audio"; filename="say \\"hi\\".wav"', 'say "hi".wav'],
  ])("accepts valid multipart with %s", async (_, preamble, disposition, fileName) => {
    const head = (d: string, type?: string) => `--b0undary\r\nContent-Disposition: form-data; ${d}\r\n${type ? `Content-Type: ${type}\r\n` : ""}\r\n`;
    const body = Buffer.concat([
      Buffer.from(preamble + head(disposition, "audio/wav")),
      Buffer.from(wav),
      Buffer.from(`\r\n${head('name="language"')}lug\r\n--b0undary--\r\n`),
    ]);
    const upload = await readSttUpload(rawRequest(new Uint8Array(body), "multipart/form-data; boundary=b0undary"), LIMIT);
    expect(upload).toMatchObject({ language: "lug", fileName });
    expect(upload.audio).toEqual(wav);
  });

  it("422 listing every field problem at once: audio missing and language missing", async () => {
    const err = await apiError(
      readSttUpload(
        formRequest((f) => f.set("lang", "lug")),
        LIMIT,
      ),
    );
    expect(err.options.errors?.map((e) => [e.loc.join("."), e.type])).toEqual([
      ["body.audio", "missing"],
      ["body.language", "missing"],
    ]);
  });

  it("422 when audio is a text field, sent twice, or provider is not a provider", async () => {
    const asText = await apiError(
      readSttUpload(
        formRequest((f) => {
          f.set("audio", "RIFF....");
          f.set("language", "lug");
        }),
        LIMIT,
      ),
    );
    expect(asText.options.errors?.[0]).toMatchObject({ loc: ["body", "audio"], type: "file_type" });
    const twice = await apiError(
      readSttUpload(
        formRequest((f) => {
          f.append("audio", new Blob([wav]), "a.wav");
          f.append("audio", new Blob([wav]), "b.wav");
          f.set("language", "lug");
        }),
        LIMIT,
      ),
    );
    expect(twice.options.errors?.[0]).toMatchObject({ loc: ["body", "audio"], type: "too_many_files" });
    const provider = await apiError(
      readSttUpload(
        formRequest((f) => {
          f.set("audio", new Blob([wav]), "a.wav");
          f.set("language", "lug");
          f.set("provider", "sunbird");
        }),
        LIMIT,
      ),
    );
    expect(provider.options.errors?.[0]).toMatchObject({ loc: ["body", "provider"], type: "enum" });
  });

  it("413 from a declared Content-Length before reading anything", async () => {
    let pulled = 0;
    const stream = new ReadableStream({
      pull(c) {
        pulled += 1;
        c.enqueue(new Uint8Array(1024));
      },
    });
    const req = rawRequest(stream, "multipart/form-data; boundary=abc", { "content-length": String(50 * 1024 * 1024) });
    expect(await apiError(readSttUpload(req, LIMIT))).toMatchObject({ code: "PAYLOAD_TOO_LARGE", status: 413 });
    expect(pulled).toBeLessThanOrEqual(1);
  });

  it("413 while streaming: stops reading soon after the cap instead of buffering the whole body", async () => {
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(c) {
        if (sent >= 50 * 1024 * 1024) return c.close();
        sent += 16 * 1024;
        c.enqueue(new Uint8Array(16 * 1024));
      },
    });
    const err = await apiError(readSttUpload(rawRequest(stream, "multipart/form-data; boundary=abc"), LIMIT));
    expect(err).toMatchObject({ code: "PAYLOAD_TOO_LARGE", message: "The audio upload exceeds the limit of 64 kB." });
    expect(sent).toBeLessThan(LIMIT + 64 * 1024 + 64 * 1024);
  });

  it("413 when the audio part alone is over the limit though the body fits the framing allowance", async () => {
    const big = new Uint8Array(LIMIT + 10);
    const err = await apiError(
      readSttUpload(
        formRequest((f) => {
          f.set("audio", new Blob([big]), "a.wav");
          f.set("language", "lug");
        }),
        LIMIT,
      ),
    );
    expect(err).toMatchObject({ code: "PAYLOAD_TOO_LARGE" });
  });
});
