import { mcpMethodNotAllowed, serveMcp } from "@/lib/api/mcp";

/** Seconds this function may run on Vercel: the longest tool's (transcribe, speak: SPEECH_DEADLINE_MS) plus the margin. */
export const maxDuration = 300;

/**
 * /mcp — the MCP server (Streamable HTTP, stateless): tools translate, translate_batch, detect_language,
 * list_languages, transcribe and speak over the API's own services, key, limits and usage (lib/api/mcp.ts).
 */
export const POST = serveMcp;
export const GET = mcpMethodNotAllowed;
export const DELETE = mcpMethodNotAllowed;
export const PUT = mcpMethodNotAllowed;
export const PATCH = mcpMethodNotAllowed;
export const OPTIONS = () => new Response(null, { status: 204, headers: { Allow: "POST, OPTIONS" } });
