import { readBodyLimited } from "./body";

/**
 * For handlers that read the body themselves (next-auth's): the same request with its body read under a byte cap,
 * so an oversized upload is refused with 413 PAYLOAD_TOO_LARGE (thrown as ApiError) instead of being buffered whole.
 * A declared Content-Length over the cap is refused before reading anything.
 */
export async function withBodyLimit<R extends Request>(req: R, maxBytes: number, rebuild: (body: Uint8Array<ArrayBuffer>) => R): Promise<R> {
  if (req.method === "GET" || req.method === "HEAD" || !req.body) return req;
  const bytes = (await readBodyLimited(req, maxBytes)) as Uint8Array<ArrayBuffer>;
  return rebuild(bytes);
}
