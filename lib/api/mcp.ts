import {
  type CallToolResult,
  type ContentBlock,
  createMcpHandler,
  type McpHttpHandler,
  McpServer,
  type StandardSchemaWithJSON,
  validateHostHeader,
  validateOriginHeader,
} from "@modelcontextprotocol/server";
import type { z } from "zod";
import { calledTool, MCP, MCP_TOOLS, type McpToolName, toolEndpoint, unknownTool } from "@/lib/compat/mcp";
import { detectTexts } from "@/lib/detect";
import { DetectRequest, DetectResponse } from "@/lib/detect/schemas";
import { validate } from "@/lib/kit/body";
import { ProtocolReply } from "@/lib/kit/dialect";
import { errorBody } from "@/lib/kit/errors";
import { requestIdFor } from "@/lib/kit/request-id";
import { listLanguages } from "@/lib/languages/listing";
import { LanguagesQuery, LanguagesResponse } from "@/lib/languages/schemas";
import { services } from "@/lib/server";
import { catalogueSubjects } from "@/lib/server/availability";
import { mcpAllowedHosts } from "@/lib/server/settings";
import { synthesizeSpeech, transcribeAudioUrl } from "@/lib/speech";
import { SttResponse, SttUrlRequest, TtsRequest, TtsResponse } from "@/lib/speech/schemas";
import { serveBatch, serveTranslation } from "@/lib/translate";
import { BatchEnvelope, BatchTranslateRequest, BatchTranslateResponse, TranslateRequest, TranslateResponse } from "@/lib/translate/schemas";
import packageJson from "@/package.json";
import { type Operation, ROUTES, type RoutePath } from "./manifest";
import { apiRoute, methodNotAllowed, type RouteContext, refusalFor } from "./route";

/**
 * The MCP server at /mcp (Streamable HTTP, stateless: the 2026-07-28 revision, and 2025-era clients through the SDK's
 * stateless fallback). Only app/mcp/route.ts imports this file, so only that function loads the MCP SDK.
 *
 * One HTTP request carries one JSON-RPC message, and goes through the route wrapper like any API request (key,
 * request id, rate limit, sandbox header, usage and request log) in the MCP dialect (lib/compat/mcp.ts). A tools/call
 * is counted as the operation it stands for, its REST twin: that operation's rate-limit bucket, and its usage record
 * and request-log line under "POST /mcp <tool>" with the twin's status. Each tool validates its arguments with the
 * twin's own zod schema (whose JSON Schema tools/list publishes) and calls the same service; a refusal is a tool result
 * with `isError`, the API's error envelope as its structured content (code and message, never the input).
 */

/** What the wrapper's context gives a tool: the caller, for the services and the answer's headers. */
type ToolCaller = RouteContext<Record<string, unknown>>;

interface Tool {
  title: string;
  description: string;
  /** The twin's schema of the arguments: published as the tool's JSON Schema, and what the arguments are validated with. */
  input: z.ZodType;
  /** The twin's schema of its answer: the tool's outputSchema, which its structured content follows. */
  output: z.ZodType;
  /** The native result (what usage, the request log and the sandbox marker read) and any content besides its JSON. */
  run(args: unknown, caller: ToolCaller): Promise<{ result: object; structured?: object; content?: ContentBlock[] }>;
}

const TOOLS: Record<McpToolName, Tool> = {
  translate: {
    title: "Translate a text",
    description:
      "Translate one text (1–5,000 characters) into target_lang, from source_lang or from the detected language. Codes: en, lug (Luganda), sw, yo, ach, nyn, ... (list_languages). Placeholders and, with format html or markdown, markup are kept.",
    input: TranslateRequest,
    output: TranslateResponse,
    run: async (args, caller) => ({ result: await serveTranslation(validate(TranslateRequest, args, "body"), services().translate, caller) }),
  },
  translate_batch: {
    title: "Translate up to 50 texts",
    description:
      "Translate up to 50 items, each {id, text, target_lang, source_lang?}; each item succeeds or fails on its own (check `failed` and each result's error).",
    input: BatchTranslateRequest,
    output: BatchTranslateResponse,
    run: async (args, caller) => ({ result: await serveBatch(validate(BatchEnvelope, args, "body"), services().translate, caller) }),
  },
  detect_language: {
    title: "Detect the language",
    description:
      "Identify the language of one text (`text`) or up to 50 (`texts`), with a confidence, whether to rely on it and the best candidates.",
    input: DetectRequest,
    output: DetectResponse,
    run: async (args) => ({ result: await detectTexts(validate(DetectRequest, args, "body"), services().detect) }),
  },
  list_languages: {
    title: "List the languages",
    description:
      "The languages served for translation, speech-to-text and text-to-speech, with providers, models, quality per pair and voices. Filters: capability (translation, stt, tts), provider, source.",
    input: LanguagesQuery,
    output: LanguagesResponse,
    run: async (args) => {
      const query = validate(LanguagesQuery, args ?? {}, "body");
      return { result: listLanguages(query, undefined, undefined, await services().availability.view(catalogueSubjects())) };
    },
  },
  transcribe: {
    title: "Transcribe a recording",
    description:
      "Speech-to-text of the recording at audio_url (https; fetched by the service under its address rules: private, loopback and metadata addresses are refused), in `language` (lug, en, sw, ach, ...).",
    input: SttUrlRequest,
    output: SttResponse,
    run: async (args, { key, startedAt }) => ({
      result: await transcribeAudioUrl(validate(SttUrlRequest, args, "body"), services().speech, { startedAt, caller: key.id }),
    }),
  },
  speak: {
    title: "Speak a text",
    description:
      "Text-to-speech: `text` (1–2,000 characters) in `language`, optional `voice` and `format` (wav by default, mp3, opus). The audio comes back as an audio content block.",
    input: TtsRequest,
    // The audio is the content block, not a field.
    output: TtsResponse.omit({ audio_base64: true }),
    run: async (args, { startedAt }) => {
      const body = validate(TtsRequest, args, "body");
      const format = body.format ?? "wav";
      const { response: meta, audio } = await synthesizeSpeech({ ...body, format }, services().speech, { startedAt });
      const block: ContentBlock = { type: "audio", data: Buffer.from(audio).toString("base64"), mimeType: meta.content_type };
      return { result: meta, content: [block] };
    },
  },
};

/** The operation a tool stands for, from the manifest: its bucket and whether its result counts as translation usage. */
function twin(tool: McpToolName): Operation {
  const [method, path] = MCP_TOOLS[tool].split(" ");
  return (ROUTES[path as RoutePath] as Record<string, Operation>)[method.toLowerCase()];
}

/**
 * The schema the SDK publishes in tools/list (the zod schema's own JSON Schema) with its validation left to the tool:
 * the arguments are checked by the twin's schema inside the call, so a bad one is the API's VALIDATION_ERROR as a tool
 * result, worded as the REST route words it.
 */
function published(schema: z.ZodType): StandardSchemaWithJSON {
  const standard = schema["~standard"] as unknown as StandardSchemaWithJSON["~standard"];
  return { "~standard": { ...standard, validate: (value: unknown) => ({ value }) } } as StandardSchemaWithJSON;
}

/** What one tools/call leaves for the wrapper: the native result and the status the twin would have answered. */
interface CallOutcome {
  result: object;
  status: number;
}

async function callTool(tool: McpToolName, args: unknown, caller: ToolCaller, outcome: { value?: CallOutcome }): Promise<CallToolResult> {
  try {
    const { result, content = [] } = await TOOLS[tool].run(args, caller);
    outcome.value = { result, status: 200 };
    const structured = result as Record<string, unknown>;
    return { content: [...content, { type: "text", text: JSON.stringify(structured) }], structuredContent: structured };
  } catch (err) {
    const refusal = refusalFor(err, caller.requestId, services().log);
    outcome.value = { result: {}, status: refusal.status };
    const { code, message, requestId, errors } = refusal;
    return {
      isError: true,
      content: [{ type: "text", text: `${code}: ${message}` }],
      structuredContent: errorBody(code, message, requestId, errors),
    };
  }
}

function server(caller: ToolCaller, outcome: { value?: CallOutcome }): McpServer {
  const mcp = new McpServer(
    { name: "lugha", title: "Lugha", version: packageJson.version },
    { instructions: "Translation, language detection and speech for African languages (Luganda, Swahili, Yoruba, Acholi, ...)." },
  );
  for (const [name, tool] of Object.entries(TOOLS) as [McpToolName, Tool][]) {
    const { title, description } = tool;
    mcp.registerTool(name, { title, description, inputSchema: published(tool.input), outputSchema: tool.output }, (args: unknown) =>
      callTool(name, args, caller, outcome),
    );
  }
  return mcp;
}

/** Per request, what the SDK's factory needs of the wrapper's context (passed through its authInfo, as the SDK intends). */
interface Pass {
  caller: ToolCaller;
  outcome: { value?: CallOutcome };
}

let handler: McpHttpHandler | undefined;
function sdk(): McpHttpHandler {
  handler ??= createMcpHandler(
    (ctx) => {
      const pass = ctx.authInfo?.extra?.pass as Pass;
      return server(pass.caller, pass.outcome);
    },
    { legacy: "stateless" },
  );
  return handler;
}

/** 4 MiB: the largest twin body (a batch of 50 texts of 5,000 characters). */
const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

const serve = apiRoute<Record<string, unknown>>({
  endpoint: "POST /mcp",
  auth: "api_key",
  dialect: MCP,
  // A message that calls no tool (initialize, tools/list, ping) spends the default bucket.
  rateLimit: "default",
  rateLimitFor: (message) => {
    const tool = calledTool(message);
    return (tool && twin(tool).rateLimit) || "default";
  },
  maxBodyBytes: MAX_MESSAGE_BYTES,
  sandbox: true,
  handler: async (caller) => {
    const outcome: { value?: CallOutcome } = {};
    const { req, body: message, key } = caller;
    if (message.method === "tools/call" && !calledTool(message)) return Response.json(unknownTool(message));
    const headers = new Headers(req.headers);
    headers.delete("content-length");
    const request = new Request(req.url, { method: "POST", headers, body: JSON.stringify(message), signal: req.signal });
    const answer = await sdk().fetch(request, {
      parsedBody: message,
      authInfo: { token: key.id, clientId: key.id, scopes: [], extra: { pass: { caller, outcome } satisfies Pass } },
    });
    // Read whole (an SSE answer too): the tool has finished, and its outcome is known, before the wrapper counts it.
    const reply = new Response(await answer.arrayBuffer(), { status: answer.status, headers: answer.headers });
    const tool = calledTool(message);
    if (!tool || !outcome.value) return reply;
    const { result, status } = outcome.value;
    return new ProtocolReply(result, reply, { endpoint: toolEndpoint(tool), status, translation: twin(tool).recordsTranslationUsage === true });
  },
});

/**
 * POST /mcp: the Host and any Origin checked against MCP_ALLOWED_HOSTS first (DNS-rebinding protection: 403, before
 * the key is read), then the wrapper. The refusal names neither header's value.
 */
export async function serveMcp(req: Request): Promise<Response> {
  const allowed = mcpAllowedHosts(services().config);
  const host = validateHostHeader(req.headers.get("host"), allowed);
  const origin = validateOriginHeader(req.headers.get("origin"), allowed);
  if (!host.ok || !origin.ok) {
    const requestId = requestIdFor(req.headers.get("x-request-id"));
    const message = `This ${host.ok ? "Origin" : "Host"} may not use the MCP endpoint (MCP_ALLOWED_HOSTS).`;
    return Response.json(
      { jsonrpc: "2.0", id: null, error: { code: -32000, message, data: { request_id: requestId } } },
      { status: 403, headers: { "X-Request-Id": requestId, "Cache-Control": "no-store" } },
    );
  }
  return serve(req);
}

/** Every other method: stateless serving has no session to open (GET) or end (DELETE). */
export const mcpMethodNotAllowed = methodNotAllowed("POST, OPTIONS", MCP);
