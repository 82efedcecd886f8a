import { jsonObject, readBodyLimited } from "@/lib/kit/body";
import type { Dialect } from "@/lib/kit/dialect";
import type { ErrorCode } from "@/lib/kit/errors";

/**
 * The Model Context Protocol's Streamable HTTP transport at /mcp, as a dialect of the route wrapper: the key is the
 * API's own Bearer token (401 with WWW-Authenticate without one), the body is one JSON-RPC message, and a refusal
 * the wrapper makes before a tool runs (key, rate limit, body) keeps the API's HTTP status with a JSON-RPC error as
 * its body. Refusals of a tool call itself (bad arguments, an unsupported language, a provider failure) are tool
 * results with `isError` (lib/api/mcp.ts). Nothing here loads the MCP SDK: the manifest's routes never pay for it.
 */
export const MCP: Dialect = {
  name: "mcp",
  readFields: async (req, maxBytes) => {
    const raw = await readBodyLimited(req, maxBytes);
    return raw.byteLength === 0 ? {} : jsonObject(raw);
  },
  status: (_code, status) => status,
  errorBody: ({ code, message, requestId }) => ({
    jsonrpc: "2.0",
    id: null,
    error: { code: jsonRpcCode(code), message, data: { code, request_id: requestId } },
  }),
  errorSchema: "JsonRpcError",
};

/** JSON-RPC's parse error for a body that is not JSON; its implementation-defined server error for the rest. */
function jsonRpcCode(code: ErrorCode): number {
  return code === "INVALID_JSON" ? -32700 : -32000;
}

/** The MCP tools, each counted as the API operation it stands for (its REST twin): that operation's bucket and usage. */
export const MCP_TOOLS = {
  translate: "POST /api/v1/translate",
  translate_batch: "POST /api/v1/translate/batch",
  detect_language: "POST /api/v1/detect",
  list_languages: "GET /api/v1/languages",
  transcribe: "POST /api/v1/speech/stt",
  speak: "POST /api/v1/speech/tts",
} as const;
export type McpToolName = keyof typeof MCP_TOOLS;

/** The tool a JSON-RPC message calls, when it is a tools/call of one of MCP_TOOLS. */
export function calledTool(message: Record<string, unknown>): McpToolName | undefined {
  if (message.method !== "tools/call") return undefined;
  const name = (message.params as { name?: unknown } | undefined)?.name;
  return typeof name === "string" && Object.hasOwn(MCP_TOOLS, name) ? (name as McpToolName) : undefined;
}

/**
 * The answer to a tools/call of a name that is not one of MCP_TOOLS: JSON-RPC's invalid params, naming the tools there
 * are and not the name sent (the SDK's own answer would quote it).
 */
export function unknownTool(message: Record<string, unknown>) {
  const id = typeof message.id === "string" || typeof message.id === "number" ? message.id : null;
  const text = `No such tool. The tools are ${Object.keys(MCP_TOOLS).join(", ")} (tools/list describes them).`;
  return { jsonrpc: "2.0", id, error: { code: -32602, message: text } };
}

/** How a tool call is logged in the key's usage and request log: the MCP endpoint and the tool. */
export const toolEndpoint = (tool: McpToolName) => `POST /mcp ${tool}`;
