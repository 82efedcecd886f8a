import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/kit/errors";
import { fetchAudioUrl, isNonPublicAddress } from "./audio-url";

const POLICY = { allowedHosts: [], maxBytes: 1024, timeoutMs: 2_000 };

describe("audio_url address rules", () => {
  it.each([
    "127.0.0.1",
    "10.1.2.3",
    "172.20.0.1",
    "192.168.1.1",
    "169.254.169.254",
    "100.100.100.200",
    "0.0.0.0",
    "::1",
    "::",
    "fe80::1",
    "fd00:ec2::254",
    "::ffff:7f00:1",
    "::ffff:a9fe:a9fe",
    "::ffff:10.0.0.1",
    "224.0.0.1",
  ])("%s is not public", (address) => {
    expect(isNonPublicAddress(address)).toBe(true);
  });

  it.each(["93.184.216.34", "8.8.8.8", "2606:4700:4700::1111"])("%s is public", (address) => {
    expect(isNonPublicAddress(address)).toBe(false);
  });

  it.each([
    ["file:///etc/passwd", "only https"],
    ["http://example.org/a.wav", "only https"],
    ["https://user:pw@example.org/a.wav", "credentials"],
    ["https://169.254.169.254/latest/meta-data/", "private, loopback"],
    ["https://[::1]/a.wav", "private, loopback"],
    ["https://metadata.google.internal/computeMetadata/v1/", "metadata"],
    ["not a url", "not a valid"],
  ])("refuses %s before any connection, naming audio_url and not the URL", async (url, why) => {
    const err = await fetchAudioUrl(url, POLICY).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    const e = err as ApiError;
    expect(e.status).toBe(422);
    expect(e.options.errors?.[0].loc).toEqual(["body", "audio_url"]);
    expect(e.message).toContain(why);
    const host = url.split("/")[2];
    if (host) expect(e.message).not.toContain(host);
  });
});
