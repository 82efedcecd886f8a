import { describe, expect, it } from "vitest";
import { loadConfig } from "@/lib/config";
import { trustsProxy as trusts } from "@/lib/server/settings";
import { clientIp } from "./client-ip";

const trustsProxy = (env: Record<string, string>) => trusts(loadConfig(env));

const req = (headers: Record<string, string>) => new Request("http://x/", { headers });

describe("client address for per-IP limits", () => {
  it("ignores every forwarding header unless the proxy is trusted", () => {
    const forged = req({ "x-forwarded-for": "203.0.113.9", "x-real-ip": "198.51.100.9" });
    expect(clientIp(forged, "127.0.0.1", false)).toBe("127.0.0.1");
  });

  it("behind a trusted proxy takes the right-most X-Forwarded-For entry (the one the proxy appended)", () => {
    expect(clientIp(req({ "x-forwarded-for": "6.6.6.6, 203.0.113.9" }), "10.0.0.1", true)).toBe("203.0.113.9");
  });

  it("trusts the proxy when TRUST_PROXY=true, or on Vercel unless TRUST_PROXY=false", () => {
    expect(trustsProxy({})).toBe(false);
    expect(trustsProxy({ TRUST_PROXY: "true" })).toBe(true);
    expect(trustsProxy({ VERCEL: "1" })).toBe(true);
    expect(trustsProxy({ VERCEL: "1", TRUST_PROXY: "false" })).toBe(false);
  });
});
