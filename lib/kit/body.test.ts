import { describe, expect, it } from "vitest";
import { z } from "zod";
import { invalidJson, parseJsonBody, validate } from "./body";
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

describe("validate: where an error is, never what the caller wrote", () => {
  const Schema = z.object({
    hashes: z.record(z.string().max(20), z.string().max(4)).optional(),
    items: z.array(z.object({ id: z.string(), tags: z.record(z.string(), z.number()) })).optional(),
    either: z.union([z.object({ a: z.string() }), z.object({ b: z.number() })]).optional(),
  });
  const SECRET = "SecretKeyMarker";
  const fail = (data: unknown) => {
    try {
      validate(Schema, data, "body");
    } catch (e) {
      return e as ApiError;
    }
    throw new Error("no error");
  };

  it("a record's key becomes its position; field names and array indexes stay", () => {
    const err = fail({ hashes: { ok: "abcd", [SECRET]: "too long" }, items: [{ id: "x", tags: { first: 1, [SECRET]: "two" } }] });
    expect(err.options.errors?.map((e) => e.loc)).toEqual([
      ["body", "hashes", "(key 2)"],
      ["body", "items", 0, "tags", "(key 2)"],
    ]);
    expect(JSON.stringify(err.options.errors) + err.message).not.toContain(SECRET);
  });

  it("a key too long for the record is located by position too", () => {
    const err = fail({ hashes: { [SECRET.repeat(3)]: "x" } });
    expect(err.options.errors?.[0].loc).toEqual(["body", "hashes", "(key 1)"]);
    expect(err.message).not.toContain(SECRET);
  });

  it("a union's fields are named through the option that has them", () => {
    const err = fail({ either: { b: SECRET } });
    expect(JSON.stringify(err.options.errors)).not.toContain(SECRET);
    expect(err.options.errors?.length).toBeGreaterThan(0);
  });
});
