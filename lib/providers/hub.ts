import { type UpstreamResponse, upstreamFetch } from "@/lib/kit/upstream-fetch";
import { type FetchLike, isRecord, readText } from "./http";

/**
 * The Hugging Face Hub's model information: which inference providers serve a model
 * (`GET {hub}/api/models/{id}?expand[]=inferenceProviderMapping`). Asking this costs no inference credits and does not
 * wake a model, so availability is learnt without calling models.
 */

export const DEFAULT_HF_HUB_URL = "https://huggingface.co";
/** The Hugging Face inference provider provider_c calls (router /hf-inference/models/...). */
export const HF_INFERENCE_PROVIDER = "hf-inference";

export interface HubOptions {
  baseUrl: string;
  token?: string;
  /** The transport: the provider calls' own (node:http with keep-alive connections) unless given one (the sandbox's). */
  fetch?: FetchLike;
  timeoutMs?: number;
}

/**
 * The largest answer read: one model's information with its provider mapping is a few kB. A Hub (or a proxy in front
 * of it) answering more is not believed, and is not buffered.
 */
export const MAX_HUB_ANSWER_BYTES = 256 * 1024;

/**
 * Whether hf-inference serves `model` now; undefined when the Hub gave no usable answer (ask again later). Sent like
 * a provider call (lib/kit/upstream-fetch.ts): the listing's first answer on a new instance asks about every model of
 * the catalogue at once, and fetch costs several times the CPU of node:http for each.
 */
export async function hubModelAvailability(model: string, opts: HubOptions): Promise<{ available: boolean; reason: string } | undefined> {
  if (!/^[A-Za-z0-9][\w.-]*\/[\w.-]+$/.test(model) || model.includes("..")) return { available: false, reason: "invalid model id" };
  const url = `${opts.baseUrl.replace(/\/+$/, "")}/api/models/${model}?expand[]=inferenceProviderMapping`;
  const signal = AbortSignal.timeout(opts.timeoutMs ?? 2_000);
  let res: UpstreamResponse;
  let text: string;
  try {
    res = await (opts.fetch ?? upstreamFetch)(url, { headers: opts.token ? { authorization: `Bearer ${opts.token}` } : {}, signal });
    // Read whatever the status, so that the connection goes back to the pool.
    text = await readText(res, "provider_c", MAX_HUB_ANSWER_BYTES, signal);
  } catch {
    return undefined;
  }
  if (res.status === 404) return { available: false, reason: "model does not exist on the Hugging Face Hub" };
  if (!res.ok) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  const entry = providerEntries(isRecord(body) ? body.inferenceProviderMapping : undefined).find((e) => e.provider === HF_INFERENCE_PROVIDER);
  if (!entry) return { available: false, reason: `no ${HF_INFERENCE_PROVIDER} deployment listed on the Hugging Face Hub` };
  if (entry.status !== "live") return { available: false, reason: `${HF_INFERENCE_PROVIDER} deployment is not live (${entry.status})` };
  return { available: true, reason: `${HF_INFERENCE_PROVIDER} deployment is live` };
}

/** The mapping comes as {provider: {status,...}} or, in newer Hub answers, as [{provider, status, ...}]. */
function providerEntries(mapping: unknown): { provider: string; status: string }[] {
  const status = (v: Record<string, unknown>) => (typeof v.status === "string" ? v.status.slice(0, 20) : "unknown");
  if (Array.isArray(mapping))
    return mapping.filter(isRecord).map((e) => ({ provider: typeof e.provider === "string" ? e.provider : "", status: status(e) }));
  if (isRecord(mapping)) return Object.entries(mapping).map(([provider, e]) => ({ provider, status: isRecord(e) ? status(e) : "unknown" }));
  return [];
}
