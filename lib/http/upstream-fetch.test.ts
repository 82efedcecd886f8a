import { afterEach, describe, expect, it, vi } from "vitest";
import { upstreamFetch } from "./upstream-fetch";

describe("upstreamFetch", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("calls the fetch Next.js wrapped, skipping its wrapper", async () => {
    const original = vi.fn(async () => new Response("from the runtime"));
    const wrapper = Object.assign(
      vi.fn(async () => new Response("through the wrapper")),
      { _nextOriginalFetch: original },
    );
    vi.stubGlobal("fetch", wrapper);
    const res = await upstreamFetch("http://upstream.test/x", { method: "POST", body: "{}" });
    expect(await res.text()).toBe("from the runtime");
    expect(original).toHaveBeenCalledWith("http://upstream.test/x", { method: "POST", body: "{}" });
    expect(wrapper).not.toHaveBeenCalled();
  });

  it("calls globalThis.fetch as it is when nothing wrapped it (tests that stub it, scripts)", async () => {
    const stub = vi.fn(async () => new Response("stub"));
    vi.stubGlobal("fetch", stub);
    expect(await (await upstreamFetch("http://upstream.test/y", {})).text()).toBe("stub");
    expect(stub).toHaveBeenCalledOnce();
  });
});
