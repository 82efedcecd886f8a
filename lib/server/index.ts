import { UpstreamBudgets } from "@/lib/budgets";
import { createTranslationCache, SingleFlight, type TranslationCache } from "@/lib/cache";
import { type Config, config } from "@/lib/config";
import type { DatabaseSource } from "@/lib/db";
import { type DetectDeps, detectSource } from "@/lib/detect";
import { findGlossary } from "@/lib/glossaries/store";
import { KeyStore } from "@/lib/keys/store";
import { configureLog, type Logger } from "@/lib/kit/log";
import {
  createProviders,
  loadProvidersConfig,
  PROVIDERS,
  providerStatus,
  type Registry,
  SUNBIRD_LANGUAGE_ID_LABELS,
  SunbirdClient,
  setCatalogueSettings,
} from "@/lib/providers";
import { createRateLimiter, FailedAuthThrottle, type GuardedRateLimitStore, type RateLimitBucket, type RateLimitRule } from "@/lib/ratelimit";
import { InFlightBudget, type SpeechDeps } from "@/lib/speech";
import type { TranslateDeps, TranslationCaching } from "@/lib/translate";
import { createAvailability } from "./availability";
import { processDatabase } from "./database";
import { budgetRules, cacheSettings, platformResponseLimit, ruleOf, storeSettings, trustsProxy } from "./settings";
import { buildMetrics, type Metrics } from "./telemetry";

export { budgetRules, cacheSettings, ruleOf, storeSettings, trustsProxy } from "./settings";

/**
 * The composition root: every service of the process, built once from the parsed configuration (lib/config) and
 * handed to the features as arguments. Only the top of the app imports this folder — the API's composition (lib/api),
 * the pages and the start-up (instrumentation.ts); no feature folder of lib/ does (a test keeps it so:
 * scripts/layers.test.ts).
 *
 * Kept on globalThis: Next.js can evaluate a module once per route bundle (and again on dev reloads), and the
 * in-process stores, the key cache, the circuits and PGlite (one process per data directory) must be one per process.
 * Built by the routes and pages, never by the start-up hook (instrumentation.ts): that hook is compiled apart, with its
 * own copies of the modules, and errors thrown by clients built there would not be the routes' error classes. The hook
 * only opens the database (./database.ts).
 */
export interface Services {
  config: Config;
  /** The structured log (LOG_LEVEL): one access line per request, warnings and errors (docs/operations.md). */
  log: Logger;
  /** The OpenTelemetry metrics: instruments, gauges over the services, and GET /metrics's Prometheus text. */
  metrics: Metrics;
  database: DatabaseSource;
  keys: KeyStore;
  limiter: GuardedRateLimitStore;
  /** The per-bucket rules of the limiter (RATE_LIMIT_*). */
  rule(bucket: RateLimitBucket): RateLimitRule;
  authThrottle: FailedAuthThrottle;
  caching: TranslationCaching;
  budgets: UpstreamBudgets;
  availability: ReturnType<typeof createAvailability>;
  providers: Registry;
  /** What POST /detect runs with: provider_a's free language identification for the texts the local detector is unsure of. */
  detect: DetectDeps;
  /** What POST /translate and /translate/batch run with. */
  translate: TranslateDeps;
  /** What POST /speech/stt and /speech/tts run with. */
  speech: SpeechDeps;
  /** Whether client addresses come from the proxy's X-Forwarded-For (TRUST_PROXY). */
  trustProxy: boolean;
  /** Each provider's mode, circuit and base URL, for /health. */
  providerStatus(): ReturnType<typeof providerStatus>;
}

const SERVICES = Symbol.for("lugha.services");
type WithServices = typeof globalThis & { [SERVICES]?: Services };

/** The process's services, built on first use. */
export function services(): Services {
  const g = globalThis as WithServices;
  return (g[SERVICES] ??= buildServices(config()));
}

/** Builds every service from `c`. Exported for tests that need a second, independent set. */
export function buildServices(c: Config): Services {
  const log = configureLog(c.LOG_LEVEL);
  setCatalogueSettings({ hfModelMap: c.HF_MODEL_MAP, hfAsrModel: c.HF_ASR_MODEL, sunbirdSttWindowSeconds: c.SUNBIRD_STT_WINDOW_SECONDS });
  const database = processDatabase(c);
  const keys = new KeyStore(database, {
    hashSecret: c.API_KEY_HASH_SECRET,
    cacheTtlMs: c.KEY_CACHE_TTL_MS,
    flushIntervalMs: c.USAGE_FLUSH_INTERVAL_MS,
  });
  keys.reportBacklogAtExit();
  const limiter = createRateLimiter({
    store: storeSettings(c, c.RATE_LIMIT_TIMEOUT_MS),
    failMode: c.RATE_LIMIT_FAIL_MODE,
    onVercel: Boolean(c.VERCEL),
  });
  const cache: TranslationCache = createTranslationCache(cacheSettings(c));
  const caching: TranslationCaching = { cache, flights: new SingleFlight<unknown>() };
  const budgets = new UpstreamBudgets(limiter, budgetRules(c));
  const providers = createProviders(loadProvidersConfig(c, PROVIDERS), PROVIDERS, () => budgets);
  const availability = createAvailability(c, providers);
  const glossaries = (keyId: string, id: string) => findGlossary(database, keyId, id);
  const detect = detectDeps(providers);
  const metrics = buildMetrics(c, { providers, budgets, usagePendingAgeMs: () => keys.usage.pendingAgeMs() });
  return {
    config: c,
    log,
    metrics,
    database,
    keys,
    limiter,
    rule: (bucket) => ruleOf(c, bucket),
    authThrottle: new FailedAuthThrottle(limiter, c.RATE_LIMIT_AUTH_FAILURES),
    caching,
    budgets,
    availability,
    providers,
    detect,
    translate: {
      providers: providers.clients,
      detect: (text) => detectSource(text, detect),
      deadlineMs: c.TRANSLATE_DEADLINE_MS,
      availability,
      caching,
      glossaries,
      batch: { deadlineMs: c.BATCH_DEADLINE_MS, concurrencyPerProvider: c.BATCH_CONCURRENCY_PER_PROVIDER, packing: c.BATCH_PACKING },
    },
    speech: {
      providers: providers.clients,
      deadlineMs: c.SPEECH_DEADLINE_MS,
      maxAudioSeconds: c.SPEECH_MAX_AUDIO_SECONDS,
      availability,
      audioUrl: {
        allowedHosts: c.AUDIO_URL_ALLOWED_HOSTS,
        maxBytes: c.AUDIO_URL_MAX_BYTES,
        timeoutMs: c.AUDIO_URL_TIMEOUT_MS,
        inFlight: new InFlightBudget(c.AUDIO_URL_IN_FLIGHT_BYTES, c.AUDIO_URL_IN_FLIGHT_BYTES_PER_KEY),
      },
      maxResponseBytes: platformResponseLimit(c),
    },
    trustProxy: trustsProxy(c),
    providerStatus: () => providerStatus(providers.clients),
  };
}

/** Detection asks provider_a's language identification when it is Sunbird's client (its emulator in sandbox mode). */
function detectDeps(providers: Registry): DetectDeps {
  const sunbird = providers.clients.provider_a;
  if (!(sunbird instanceof SunbirdClient)) return {};
  return { identifier: { labels: SUNBIRD_LANGUAGE_ID_LABELS, classifyLanguage: (text, req) => sunbird.classifyLanguage(text, req) } };
}
