import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { BlockList, isIP, type LookupFunction } from "node:net";
import { formatBytes } from "@/lib/kit/bytes";
import { ApiError } from "@/lib/kit/errors";

/**
 * Fetching the recording of an STT request sent by URL (`audio_url`), without letting the URL reach what the service
 * can reach and the caller cannot (server-side request forgery):
 *
 *  - https only; http only for a host listed in AUDIO_URL_ALLOWED_HOSTS. No other scheme (file:, ftp:, data:, ...),
 *    no user:password in the URL. A listed `host` is listed on its scheme's default port only; `host:port` (IPv6:
 *    `[addr]:port`) lists that port.
 *  - The address connected to is checked, not the name: the host is resolved here and the connection goes to the
 *    address that passed (so a name cannot resolve to a public address when checked and a private one when used).
 *    Private (10/8, 172.16/12, 192.168/16, fc00::/7), loopback, link-local (169.254/16 — cloud metadata — and fe80::/10),
 *    carrier-grade NAT, unspecified, multicast and reserved addresses are refused unless the host is listed, and so is
 *    every IPv6 range that carries an IPv4 address (IPv4-mapped ::ffff:0:0/96, IPv4-compatible ::/96, 6to4 2002::/16,
 *    Teredo 2001::/32, NAT64 64:ff9b::/96 and 64:ff9b:1::/48): through them any IPv4 address, private ones included,
 *    could be reached.
 *  - Every redirect (at most MAX_REDIRECTS) is checked the same way before it is followed.
 *  - At most AUDIO_URL_MAX_BYTES (a larger Content-Length is refused before the body, a body growing past it is cut),
 *    within AUDIO_URL_TIMEOUT_MS for the whole fetch, redirects included, and never past the request's deadline. On
 *    every way out — the recording read, a redirect followed, an error status, a refusal, a timeout — the connection
 *    is closed: nothing is read after the answer.
 *  - Bytes in flight are bounded (InFlightBudget): each fetch reserves AUDIO_URL_MAX_BYTES before it connects, within
 *    AUDIO_URL_IN_FLIGHT_BYTES for the process and AUDIO_URL_IN_FLIGHT_BYTES_PER_KEY for one API key. A fetch that
 *    does not fit is not started: 429 RATE_LIMIT_EXCEEDED when the key's share is taken, 503 SERVICE_UNAVAILABLE
 *    when the process's is, both with Retry-After.
 *
 * A refusal is 422 VALIDATION_ERROR on body.audio_url (413 PAYLOAD_TOO_LARGE when the recording is too large); the
 * message says why in our words and never quotes the URL. What was fetched is then checked like an upload (its bytes,
 * not its Content-Type, say what it is).
 */

export interface AudioUrlPolicy {
  /** Lower-case `host` or `host:port` (IPv6 `addr` or `[addr]:port`) allowed http and non-public addresses. */
  allowedHosts: readonly string[];
  maxBytes: number;
  timeoutMs: number;
  /** Bytes that fetches in flight may hold; without it, unbounded (unit tests of the address rules). */
  inFlight?: InFlightBudget;
}

/** Seconds a caller refused for want of room is asked to wait: fetches end within seconds. */
const RETRY_AFTER_SECONDS = 2;

/**
 * Bytes reserved by the fetches in flight, in the process and per API key. A fetch reserves the most it may read
 * (AUDIO_URL_MAX_BYTES) before connecting and gives it back when it ends, however it ends.
 */
export class InFlightBudget {
  private total = 0;
  private readonly byKey = new Map<string, number>();
  constructor(
    readonly processBytes: number,
    readonly perKeyBytes: number,
  ) {}

  /** Reserves `bytes` for `key`; returns the release. Throws ApiError 429 (the key's share) or 503 (the process's). */
  reserve(key: string, bytes: number): () => void {
    const held = this.byKey.get(key) ?? 0;
    const retry = { headers: { "Retry-After": String(RETRY_AFTER_SECONDS) } };
    if (held > 0 && held + bytes > this.perKeyBytes)
      throw new ApiError("RATE_LIMIT_EXCEEDED", "This key has as many audio_url recordings being fetched as it may; retry when one ends.", retry);
    if (this.total > 0 && this.total + bytes > this.processBytes)
      throw new ApiError("SERVICE_UNAVAILABLE", "The service is fetching as many audio_url recordings as it can hold; retry shortly.", retry);
    this.total += bytes;
    this.byKey.set(key, held + bytes);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.total -= bytes;
      const left = (this.byKey.get(key) ?? 0) - bytes;
      if (left > 0) this.byKey.set(key, left);
      else this.byKey.delete(key);
    };
  }

  /** Bytes reserved now. */
  get reserved(): number {
    return this.total;
  }
}

export const MAX_REDIRECTS = 3;
const FIELD = ["body", "audio_url"];

const BLOCKED = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  BLOCKED.addSubnet(net, prefix, "ipv4");
for (const [net, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["64:ff9b::", 96],
  ["64:ff9b:1::", 48],
  ["2001::", 32],
  ["2002::", 16],
  ["100::", 64],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
] as const)
  BLOCKED.addSubnet(net, prefix, "ipv6");

/** Host names that are cloud metadata services whatever they resolve to. */
const METADATA_NAMES = new Set(["metadata", "metadata.google.internal", "metadata.goog", "instance-data", "instance-data.ec2.internal"]);

/**
 * IPv6 addresses that carry an IPv4 address in their last 32 bits: IPv4-compatible (::/96) and IPv4-mapped
 * (::ffff:0:0/96). Apart from BLOCKED because a BlockList matches IPv4 addresses against these rules too.
 */
const CARRIES_IPV4 = new BlockList();
CARRIES_IPV4.addSubnet("::", 96, "ipv6");
CARRIES_IPV4.addSubnet("::ffff:0:0", 96, "ipv6");

/** Whether `address` (an IP literal) is one an audio_url may not reach unless its host is listed. */
export function isNonPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  if (family === 6 && CARRIES_IPV4.check(address, "ipv6")) return true;
  return BLOCKED.check(address, family === 4 ? "ipv4" : "ipv6");
}

function refused(message: string, type = "audio_url_refused"): ApiError {
  return new ApiError("VALIDATION_ERROR", `audio_url: ${message}`, { errors: [{ loc: FIELD, msg: message, type }] });
}

function tooLarge(maxBytes: number): ApiError {
  const message = `the recording at audio_url is larger than ${formatBytes(maxBytes)}`;
  return new ApiError("PAYLOAD_TOO_LARGE", `audio_url: ${message}`, { errors: [{ loc: FIELD, msg: message, type: "file_too_large" }] });
}

/** The URL's host as compared with AUDIO_URL_ALLOWED_HOSTS: lower case, IPv6 without brackets. */
const hostOf = (url: URL) => url.hostname.toLowerCase().replace(/^\[(.*)\]$/, "$1");

/** An AUDIO_URL_ALLOWED_HOSTS entry as host (IPv6 without brackets) and port (undefined: the scheme's default). */
function allowedEntry(entry: string): { host: string; port?: number } {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed) return { host: bracketed[1], ...(bracketed[2] ? { port: Number(bracketed[2]) } : {}) };
  const withPort = /^([^:]+):(\d+)$/.exec(entry);
  return withPort ? { host: withPort[1], port: Number(withPort[2]) } : { host: entry };
}

/** Whether the URL's host and port are listed: `host` on the scheme's default port, `host:port` on that port. */
export function isListed(url: URL, allowedHosts: readonly string[]): boolean {
  const host = hostOf(url);
  const defaultPort = url.protocol === "https:" ? 443 : 80;
  const port = url.port ? Number(url.port) : defaultPort;
  return allowedHosts.some((entry) => {
    const allowed = allowedEntry(entry);
    return allowed.host === host && (allowed.port ?? defaultPort) === port;
  });
}

/** Checks one URL of the chain (the first or a redirect's target); returns whether its host is listed. */
function checkUrl(url: URL, policy: AudioUrlPolicy): boolean {
  if (url.protocol !== "https:" && url.protocol !== "http:") throw refused("only https URLs are accepted");
  if (url.username || url.password) throw refused("the URL must not contain credentials");
  const host = hostOf(url);
  const listed = isListed(url, policy.allowedHosts);
  if (url.protocol === "http:" && !listed) throw refused("only https URLs are accepted");
  if (!listed && (METADATA_NAMES.has(host.replace(/\.$/, "")) || (isIP(host) !== 0 && isNonPublicAddress(host))))
    throw refused("the URL points to a private, loopback, link-local or metadata address");
  return listed;
}

/** A resolver that refuses non-public addresses for a host that is not listed, so the check holds for the connection. */
function checkedLookup(listed: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return (callback as (e: Error | null, a: LookupAddress[] | string, f?: number) => void)(err, [], undefined);
      const list = addresses as LookupAddress[];
      const usable = listed ? list : list.filter((a) => !isNonPublicAddress(a.address));
      const cb = callback as (e: Error | null, a: LookupAddress[] | string, f?: number) => void;
      if (usable.length === 0 || (!listed && usable.length < list.length)) return cb(new NonPublicAddress(), [], undefined);
      if ((options as { all?: boolean }).all) return cb(null, usable);
      return cb(null, usable[0].address, usable[0].family);
    });
  };
}

class NonPublicAddress extends Error {
  override readonly name = "NonPublicAddress";
}

/**
 * The recording at `raw`, under `policy`, by `deadline` (epoch ms), for the API key `caller` (whose share of the
 * in-flight budget it uses). Throws ApiError (422 on audio_url, or 413) when the URL is refused or the fetch fails,
 * 429/503 when the budget has no room.
 */
export async function fetchAudioUrl(raw: string, policy: AudioUrlPolicy, deadline = Number.POSITIVE_INFINITY, caller = ""): Promise<Uint8Array> {
  if (!URL.canParse(raw)) throw refused("not a valid absolute URL");
  let url = new URL(raw);
  checkUrl(url, policy); // a URL refused outright takes no room in the budget
  const release = policy.inFlight?.reserve(caller, policy.maxBytes);
  const controller = new AbortController();
  const timeoutMs = Math.max(1, Math.min(policy.timeoutMs, deadline - Date.now()));
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  let done = false;
  let timedOut = false;
  controller.signal.addEventListener("abort", () => (timedOut = !done), { once: true });
  try {
    for (let hop = 0; ; hop++) {
      const listed = checkUrl(url, policy);
      const res = await get(url, listed, controller.signal);
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400 && res.headers.location) {
        res.destroy();
        if (hop >= MAX_REDIRECTS) throw refused(`more than ${MAX_REDIRECTS} redirects`, "audio_url_unreachable");
        if (!URL.canParse(res.headers.location, url)) throw refused("a redirect points to an invalid URL");
        url = new URL(res.headers.location, url);
        continue;
      }
      if (status < 200 || status >= 300) {
        res.destroy();
        throw refused(`the server answered HTTP ${status} instead of the recording`, "audio_url_unreachable");
      }
      return await readCapped(res, policy.maxBytes, controller.signal);
    }
  } catch (err) {
    if (err instanceof ApiError) throw err;
    if (err instanceof NonPublicAddress || (err as { cause?: unknown })?.cause instanceof NonPublicAddress)
      throw refused("the URL points to a private, loopback, link-local or metadata address");
    if (timedOut) throw refused(`the recording could not be fetched within ${Math.round(timeoutMs / 100) / 10} s`, "audio_url_timeout");
    throw refused("the recording could not be fetched (the host could not be reached)", "audio_url_unreachable");
  } finally {
    // Whatever happened, the connection of this fetch is closed now (aborting the signal destroys the request and
    // its response), so nothing more is read, and its room in the budget is given back.
    done = true;
    clearTimeout(timer);
    controller.abort();
    release?.();
  }
}

function get(url: URL, listed: boolean, signal: AbortSignal): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const send = url.protocol === "https:" ? httpsRequest : httpRequest;
    const req = send(url, {
      method: "GET",
      lookup: checkedLookup(listed),
      signal,
      headers: { accept: "audio/*, */*;q=0.5", "user-agent": "lugha-audio-fetch" },
    });
    req.once("response", resolve);
    req.once("error", reject);
    req.end();
  });
}

function readCapped(res: IncomingMessage, maxBytes: number, signal: AbortSignal): Promise<Uint8Array> {
  const declared = Number(res.headers["content-length"]);
  if (Number.isFinite(declared) && declared > maxBytes) {
    res.destroy();
    return Promise.reject(tooLarge(maxBytes));
  }
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let total = 0;
    const onAbort = () => res.destroy(new Error("aborted"));
    signal.addEventListener("abort", onAbort, { once: true });
    res.on("data", (chunk: Buffer) => {
      total += chunk.byteLength;
      if (total > maxBytes) {
        res.destroy();
        reject(tooLarge(maxBytes));
      } else parts.push(chunk);
    });
    res.once("end", () => {
      signal.removeEventListener("abort", onAbort);
      resolve(new Uint8Array(Buffer.concat(parts)));
    });
    res.once("error", (err) => {
      signal.removeEventListener("abort", onAbort);
      reject(err);
    });
    res.once("close", () => {
      if (!res.complete) reject(new Error("body ended early"));
    });
  });
}
