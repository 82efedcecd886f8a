import { describe, expect, it } from "vitest";
import { z } from "zod";
import { invalidJson, parseJsonBody } from "./body";
import { ApiError } from "./errors";

const MARKER = "EchoCanaryQ7x";

async function refusal(body: BodyInit, contentType = "application/json"): Promise<ApiError> {
  const req = new Request("http://localhost/x", { method: "POST", headers: { "content-type": contentType }, body });
  const err = await parseJsonBody(req, z.object({ text: z.string() }), 64 * 1024).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

describe("malformed JSON: where parsing failed, never the body", () => {
  it.each([
    // [body, line, column] — 1-based, where JSON.parse (or, when V8 states no position, the JSON scanner) stopped.
    [`{"text": <${MARKER}`, 1, 10],
    [`{"text": "${MARKER}",}`, 1, 26],
    [`{"text": "${MARKER}"} ${MARKER}`, 1, 27],
    [`{\n  "text": "${MARKER}",\n  ${MARKER}\n}`, 3, 3],
    [`{"text": ${MARKER}}`, 1, 10],
    [`{"text": "é${MARKER}`, 1, 25],
  ])("%j → line %i, column %i", async (body, line, column) => {
    const err = await refusal(body);
    expect(err.code).toBe("INVALID_JSON");
    expect(err.message).toContain(`(line ${line}, column ${column})`);
    expect(err.message).toMatch(
      /^The request body is not valid JSON: (parsing failed at position \d+|the body ends before the JSON value does) \(line/,
    );
    expect(err.message.toLowerCase()).not.toContain("canary");
  });

  it("a body cut short says so; the position counts characters, not bytes or UTF-16 units", () => {
    expect(invalidJson('{"text": "ab', "Unexpected end of JSON input").message).toBe(
      "The request body is not valid JSON: the body ends before the JSON value does (line 1, column 13).",
    );
    expect(invalidJson('{"t": "😀😀", x}', "").message).toBe(
      "The request body is not valid JSON: parsing failed at position 12 (line 1, column 13).",
    );
  });

  it("a body that is not UTF-8 is named so, without a byte of it", async () => {
    const err = await refusal(new Uint8Array([...new TextEncoder().encode(`{"text": "${MARKER}`), 0xff, 0x22, 0x7d]));
    expect(err.code).toBe("INVALID_JSON");
    expect(err.message).toBe("The request body is not valid UTF-8, so it is not valid JSON.");
  });
});
