import { describe, expect, it } from "vitest";
import { ApiError } from "./errors";
import { readFields } from "./fields";

const post = (body: BodyInit, contentType?: string, url = "http://x/t") =>
  new Request(url, { method: "POST", body, headers: contentType ? { "content-type": contentType } : {} });

describe("readFields", () => {
  it("reads a JSON object over the query string", async () => {
    expect(await readFields(post(JSON.stringify({ q: "hi", n: 2 }), "application/json", "http://x/t?q=query&k=v"), 1000)).toEqual({
      q: "hi",
      n: 2,
      k: "v",
    });
  });

  it("reads a form, a repeated name (or name[]) as an array, and a body without a Content-Type as a form", async () => {
    const fields = await readFields(post("text=a&text=b&target_lang=DE&ignore_tags[]=x", "application/x-www-form-urlencoded"), 1000);
    expect(fields).toEqual({ text: ["a", "b"], target_lang: "DE", ignore_tags: ["x"] });
    expect(await readFields(post("q=test&source=en"), 1000)).toEqual({ q: "test", source: "en" });
  });

  it("reads multipart text fields", async () => {
    const form = new FormData();
    form.set("q", "hello");
    form.set("target", "lg");
    expect(await readFields(new Request("http://x/t", { method: "POST", body: form }), 10_000)).toEqual({ q: "hello", target: "lg" });
  });

  it("keeps a field named __proto__ as a field, never as the object's prototype", async () => {
    const fields = await readFields(post('{"__proto__": {"polluted": true}, "q": "x"}', "application/json"), 1000);
    expect(Object.getPrototypeOf(fields)).toBe(null);
    expect((fields as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it("refuses an oversized, malformed or non-object body with the API's codes, quoting none of it", async () => {
    const codes = async (req: Request, max = 1000) => {
      const err = await readFields(req, max).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).message).not.toContain("Canary");
      return (err as ApiError).code;
    };
    expect(await codes(post(`{"q":"${"Canary".repeat(100)}"}`, "application/json"), 100)).toBe("PAYLOAD_TOO_LARGE");
    expect(await codes(post('{"q": "Canary', "application/json"))).toBe("INVALID_JSON");
    expect(await codes(post('["Canary"]', "application/json"))).toBe("VALIDATION_ERROR");
    expect(await codes(post(new Uint8Array([0x71, 0x3d, 0xff]), "application/x-www-form-urlencoded"))).toBe("INVALID_JSON");
  });

  it("reads only the query string of a GET", async () => {
    expect(await readFields(new Request("http://x/t?type=target"), 1000)).toEqual({ type: "target" });
  });
});
