import { budgetVariable } from "@/lib/budgets";
import type { TranslationCacheConfig } from "@/lib/cache";
import { type Config, PLATFORM_BODY_LIMIT_BYTES } from "@/lib/config";
import { PROVIDER_IDS, type ProviderId } from "@/lib/providers";
import type { RateLimitBucket, RateLimitRule } from "@/lib/ratelimit";
import type { StoreSettings } from "@/lib/store";

/** The parsed configuration turned into each service's settings (pure: tests call these with loadConfig(env)). */

/** Which shared store the configuration selects: Upstash (either pair of names), else REDIS_URL, else in process. */
export function storeSettings(c: Config, timeoutMs: number): StoreSettings {
  const upstashUrl = c.UPSTASH_REDIS_REST_URL ?? c.KV_REST_API_URL;
  const upstashToken = c.UPSTASH_REDIS_REST_URL ? c.UPSTASH_REDIS_REST_TOKEN : c.KV_REST_API_TOKEN;
  if (upstashUrl && upstashToken) return { backend: "upstash", upstash: { url: upstashUrl, token: upstashToken }, timeoutMs };
  if (c.REDIS_URL) return { backend: "redis", redisUrl: c.REDIS_URL, timeoutMs };
  return { backend: "memory", timeoutMs };
}

/** The rule of a rate-limit bucket: RATE_LIMIT_<BUCKET>. */
export function ruleOf(c: Config, bucket: RateLimitBucket): RateLimitRule {
  return c[`RATE_LIMIT_${bucket.toUpperCase() as Uppercase<RateLimitBucket>}`];
}

export function cacheSettings(c: Config): TranslationCacheConfig {
  return {
    enabled: c.TRANSLATION_CACHE === "on",
    scope: c.TRANSLATION_CACHE_SCOPE,
    ttlMs: c.TRANSLATION_CACHE_TTL_SECONDS * 1000,
    maxBytes: c.TRANSLATION_CACHE_MAX_BYTES,
    store: storeSettings(c, c.TRANSLATION_CACHE_TIMEOUT_MS),
  };
}

/** Each provider's budget windows (UPSTREAM_BUDGET_<PROVIDER>). */
export function budgetRules(c: Config): Record<ProviderId, RateLimitRule[]> {
  const read = (id: ProviderId) => (c as unknown as Record<string, RateLimitRule[] | undefined>)[budgetVariable(id)] ?? [];
  return Object.fromEntries(PROVIDER_IDS.map((id) => [id, read(id)])) as Record<ProviderId, RateLimitRule[]>;
}

/** TRUST_PROXY, or on Vercel (no socket address to read; its edge sets X-Forwarded-For itself) true by default. */
export function trustsProxy(c: Config): boolean {
  return c.TRUST_PROXY ?? Boolean(c.VERCEL);
}

/**
 * The largest response body the platform delivers: 4.5 MB on Vercel (PLATFORM_BODY_LIMIT_BYTES), none elsewhere. Text
 * to speech refuses up front a text whose audio could pass it.
 */
export function platformResponseLimit(c: Config): number | undefined {
  return c.VERCEL ? PLATFORM_BODY_LIMIT_BYTES : undefined;
}

/** The hostnames /mcp answers under and whose pages may call it: MCP_ALLOWED_HOSTS and NEXTAUTH_URL's. */
export function mcpAllowedHosts(c: Config): string[] {
  const site = c.NEXTAUTH_URL ? new URL(c.NEXTAUTH_URL).hostname.toLowerCase() : undefined;
  return site && !c.MCP_ALLOWED_HOSTS.includes(site) ? [...c.MCP_ALLOWED_HOSTS, site] : c.MCP_ALLOWED_HOSTS;
}
