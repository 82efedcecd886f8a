import { describe, expect, it } from "vitest";
import { formatSeconds, rateLimitFrom } from "./api";
import { contentSecurityPolicy } from "./csp";
import { htmlLang } from "./lang";
import { qualityLabel } from "./quality";

describe("content security policy", () => {
  it("allows scripts only by nonce (strict-dynamic), never inline or eval in production", () => {
    const csp = contentSecurityPolicy("abc123");
    expect(csp).toContain("script-src 'self' 'nonce-abc123' 'strict-dynamic'");
    const script = csp.split("; ").find((d) => d.startsWith("script-src"))!;
    expect(script).not.toContain("unsafe-inline");
    expect(script).not.toContain("unsafe-eval");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("media-src 'self' blob:");
    expect(contentSecurityPolicy("n", true)).toContain("'unsafe-eval'");
  });
});

describe("portal helpers", () => {
  it("labels quality scores with the documented bands", () => {
    expect(qualityLabel(0.92).band).toBe("Excellent");
    expect(qualityLabel(0.9).band).toBe("Excellent");
    expect(qualityLabel(0.85).band).toBe("Good");
    expect(qualityLabel(0.75).band).toBe("Decent");
    expect(qualityLabel(0.65).band).toBe("Acceptable");
    expect(qualityLabel(0.59).band).toBe("Poor");
  });

  it("reads X-RateLimit-* headers", () => {
    const snap = rateLimitFrom(new Headers({ "X-RateLimit-Limit": "60", "X-RateLimit-Remaining": "59", "X-RateLimit-Reset": "1900000000" }));
    expect(snap).toMatchObject({ limit: 60, remaining: 59, resetAt: 1_900_000_000_000 });
    expect(rateLimitFrom(new Headers())).toBeUndefined();
  });

  it("formats waits", () => {
    expect(formatSeconds(5)).toBe("5 s");
    expect(formatSeconds(125)).toBe("2 min 5 s");
    expect(formatSeconds(3600)).toBe("1 h");
  });
});

describe("html lang attributes", () => {
  it("use the two-letter code where the language has one, the three-letter code otherwise, nothing for unknown codes", () => {
    expect(htmlLang("lug")).toBe("lg");
    expect(htmlLang("LUG")).toBe("lg");
    expect(htmlLang("sw")).toBe("sw");
    expect(htmlLang("swa")).toBe("sw");
    expect(htmlLang("ach")).toBe("ach");
    expect(htmlLang("not-a-language")).toBeUndefined();
  });
});
