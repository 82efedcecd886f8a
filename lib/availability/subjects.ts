import { ProviderError, type ProviderId } from "@/lib/providers/types";
import { modelSubject, pairSubject, sttSubject } from "./index";

/**
 * The subject an upstream failure proves unavailable, with our reason, or undefined when the failure says nothing
 * about availability (timeouts, 5xx, rate limits: the model exists, it is just not answering now).
 */
export function unavailableSubject(
  err: unknown,
  route: { provider: ProviderId; model: string; source?: string; target?: string; sttLanguage?: string },
): { subject: string; reason: string } | undefined {
  if (!(err instanceof ProviderError)) return undefined;
  if (err.upstreamCode === "MODEL_NOT_SUPPORTED")
    return { subject: modelSubject(route.provider, route.model), reason: "upstream answered: model not supported by the inference provider (400)" };
  if (err.upstreamCode === "MODEL_NOT_DEPLOYED")
    return { subject: modelSubject(route.provider, route.model), reason: "upstream answered: model does not exist or is not deployed (404)" };
  if (route.source && route.target && err.kind === "rejected" && /^UNSUPPORTED_LANGUAGE/.test(err.upstreamCode ?? "") && err.status !== undefined)
    return { subject: pairSubject(route.provider, route.source, route.target), reason: `upstream answered: language not supported (${err.status})` };
  if (route.sttLanguage && err.kind === "rejected" && /^UNSUPPORTED_LANGUAGE/.test(err.upstreamCode ?? "") && err.status !== undefined)
    return {
      subject: sttSubject(route.provider, route.sttLanguage),
      reason: `upstream answered: language not supported for speech-to-text (${err.status})`,
    };
  return undefined;
}
