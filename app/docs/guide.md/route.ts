import { markdown } from "@/docs/guide.md";
import { conditionalResponse, fixedBody, PUBLIC_READ_CACHE } from "@/lib/kit/validator";

/**
 * GET /docs/guide.md — the developer guide as Markdown, for readers that want the text itself (an editor, an agent, a
 * mirror). Unlike the /docs/guide page, whose HTML carries a fresh CSP nonce on every request and so can never be
 * revalidated, these bytes change only with a deploy: a strong ETag, If-None-Match → 304, and a shared cache may keep it.
 */
const guide = fixedBody(markdown);

export function GET(req: Request): Response {
  return conditionalResponse(req, guide, { "Content-Type": "text/markdown; charset=utf-8", "Cache-Control": PUBLIC_READ_CACHE });
}
