import { isRecord } from "./http";

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
  fetch?: (url: string, init?: RequestInit) => Promise<Response>;
  timeoutMs?: number;
}

/** Whether hf-inference serves `model` now; undefined when the Hub gave no usable answer (ask again later). */
export async function hubModelAvailability(model: string, opts: HubOptions): Promise<{ available: boolean; reason: string } | undefined> {
  if (!/^[A-Za-z0-9][\w.-]*\/[\w.-]+$/.test(model) || model.includes("..")) return { available: false, reason: "invalid model id" };
  const url = `${opts.baseUrl.replace(/\/+$/, "")}/api/models/${model}?expand[]=inferenceProviderMapping`;
  let res: Response;
  try {
    res = await (opts.fetch ?? ((u, i) => fetch(u, i)))(url, {
      headers: opts.token ? { authorization: `Bearer ${opts.token}` } : {},
      signal: AbortSignal.timeout(opts.timeoutMs ?? 2_000),
    });
  } catch {
    return undefined;
  }
  if (res.status === 404) return { available: false, reason: "model does not exist on the Hugging Face Hub" };
  if (!res.ok) return undefined;
  let body: unknown;
  try {
    body = await res.json();
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
