/** Small response builders shared by the emulators. */

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
}

/**
 * JSON with every non-ASCII character escaped (\u025b), as Python's json.dumps writes by default. Khaya's string bodies
 * look like this, which is why a client must JSON-decode them rather than strip the quotes.
 */
export function jsonAscii(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  const text = JSON.stringify(body).replace(/[\u007f-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`);
  return new Response(text, { status, headers: { "content-type": "application/json", ...headers } });
}

export function text(status: number, body: string, contentType = "text/plain; charset=utf-8", headers: Record<string, string> = {}): Response {
  return new Response(body, { status, headers: { "content-type": contentType, ...headers } });
}

export function binary(status: number, body: Uint8Array<ArrayBuffer>, contentType: string, headers: Record<string, string> = {}): Response {
  return new Response(body, { status, headers: { "content-type": contentType, "content-length": String(body.byteLength), ...headers } });
}

/** The kind of page a gateway serves when its backend is down (Azure App Service, nginx ...). */
export function htmlPage(status: number, title = "Web App - Unavailable"): Response {
  const page = `<!DOCTYPE html><html><head><title>${title}</title></head><body><h1>${title}</h1><p>Error ${status}. The service is temporarily unavailable.</p></body></html>`;
  return text(status, page, "text/html; charset=utf-8");
}

/**
 * "[sandbox:khaya en-tw] Hello": deterministic, and impossible to mistake for a real translation or transcript. A text
 * of several lines is marked on each line that holds lower-case text (as a model translates it line by line); lines of
 * capitals, digits or symbols only are copied, as a model copies names and codes.
 */
export function sandboxMark(kind: string, detail: string, content: string): string {
  const mark = `[sandbox:${kind} ${detail}] `;
  if (!content.includes("\n")) return mark + content;
  return content
    .split("\n")
    .map((line, i) => (i === 0 || /\p{Ll}/u.test(line) ? mark + line : line))
    .join("\n");
}

/** Parses a JSON request body; undefined when it is not JSON. */
export async function readJson(req: Request): Promise<unknown> {
  try {
    return JSON.parse(await req.text());
  } catch {
    return undefined;
  }
}

/** A stable 32-bit hash (FNV-1a), for deterministic ids, voices and tones. */
export function hash32(input: string | Uint8Array): number {
  const bytes = typeof input === "string" ? new TextEncoder().encode(input) : input;
  let h = 0x811c9dc5;
  for (const b of bytes) {
    h ^= b;
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function hex(n: number, length: number): string {
  let out = "";
  for (let i = 0; out.length < length; i++) out += hash32(`${n}:${i}`).toString(16).padStart(8, "0");
  return out.slice(0, length);
}
