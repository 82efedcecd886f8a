import { Availability, type AvailabilityChecker, modelSubject } from "@/lib/availability";
import { type AvailabilityStore, MemoryAvailabilityStore } from "@/lib/availability/store";
import { translationSubjects } from "@/lib/languages/pairs";
import { sttOptions, VOICES } from "@/lib/languages/speech";
import { getProviders, getSandboxEmulator } from "@/lib/providers";
import { DEFAULT_HF_HUB_URL, hubModelAvailability } from "@/lib/providers/hub";
import { inProcessFetch } from "@/lib/providers/sandbox/emulator";
import { rateLimiterConfig } from "@/lib/ratelimit";
import { deferredBackend } from "@/lib/ratelimit/deferred";

type Env = Record<string, string | undefined>;

const HF_MODEL_SUBJECT = "model:provider_c:";

function seconds(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (Number.isFinite(n) && n >= 1 && n <= 7 * 86_400) return n;
  console.warn(`[availability] ${name} is not 1-604800 seconds; using ${fallback}`);
  return fallback;
}

/**
 * The store the rate limiter uses (Upstash, Redis or memory, same variables and timeout), the shared ones loaded in the
 * background (lib/ratelimit/deferred.ts). One that cannot be built fails every call, so availability stays per instance.
 */
export function availabilityStore(env: Env = process.env, now?: () => number): AvailabilityStore {
  const { backend, timeoutMs } = rateLimiterConfig(env);
  if (backend === "memory") return new MemoryAvailabilityStore(now);
  const shared = deferredBackend("availability", backend, async (): Promise<AvailabilityStore> => {
    const stores = await import("@/lib/availability/shared-store");
    return backend === "upstash"
      ? new stores.UpstashAvailabilityStore({ url: env.UPSTASH_REDIS_REST_URL!, token: env.UPSTASH_REDIS_REST_TOKEN!, timeoutMs })
      : new stores.RedisAvailabilityStore({ url: env.REDIS_URL!, timeoutMs });
  });
  return {
    name: backend,
    getMany: async (keys) => (await shared.get()).getMany(keys),
    set: async (key, value, ttlMs) => (await shared.get()).set(key, value, ttlMs),
  };
}

/**
 * Builds availability from the environment: AVAILABILITY_TTL_SECONDS (default 3600), AVAILABILITY_SYNC_SECONDS
 * (default 60, capped at the TTL), the Hub at HF_HUB_URL (default https://huggingface.co, HF_TOKEN sent) — or, when
 * provider_c runs in sandbox mode, the Hugging Face emulator's model information.
 */
export function createAvailability(
  env: Env = process.env,
  deps: { now?: () => number; checker?: AvailabilityChecker; store?: AvailabilityStore } = {},
) {
  const ttl = seconds(env, "AVAILABILITY_TTL_SECONDS", 3_600);
  const sync = Math.min(ttl, seconds(env, "AVAILABILITY_SYNC_SECONDS", 60));
  return new Availability({
    store: deps.store ?? availabilityStore(env, deps.now),
    ttlMs: ttl * 1000,
    syncMs: sync * 1000,
    timeoutMs: rateLimiterConfig(env).timeoutMs,
    now: deps.now,
    checker: deps.checker ?? hubChecker(env),
    checkable: (subject) => subject.startsWith(HF_MODEL_SUBJECT),
  });
}

/** Asks the Hub (or, in sandbox mode, the Hugging Face emulator) about `model:provider_c:<id>` subjects. */
function hubChecker(env: Env): AvailabilityChecker {
  return (subject) => {
    const model = subject.slice(HF_MODEL_SUBJECT.length);
    const emulator = getProviders().provider_c.mode === "sandbox" ? getSandboxEmulator("provider_c") : undefined;
    if (emulator) return hubModelAvailability(model, { baseUrl: "http://hf.sandbox.invalid", fetch: inProcessFetch(emulator.handler) });
    return hubModelAvailability(model, { baseUrl: env.HF_HUB_URL?.trim() || DEFAULT_HF_HUB_URL, token: env.HF_TOKEN });
  };
}

// On globalThis so every route bundle shares one instance (and one local copy).
const KEY = Symbol.for("lugha.availability");
type WithAvailability = typeof globalThis & { [KEY]?: Availability };

export function getAvailability(): Availability {
  const g = globalThis as WithAvailability;
  return (g[KEY] ??= createAvailability());
}

/** Forget the instance (tests that change the environment). */
export function resetAvailabilityForTests(): void {
  delete (globalThis as WithAvailability)[KEY];
}

/** For the operator view of /health: what is unavailable, why, and when it is re-checked. */
export function availabilityReport() {
  const availability = getAvailability();
  const unavailable = availability.report();
  return { store: availability.storeName, unavailable_count: unavailable.length, unavailable };
}

/** Every model the catalogue routes to (translation, STT, TTS): what the listing checks before it answers. */
export function catalogueSubjects(): string[] {
  const speech = [
    ...VOICES.map((v) => modelSubject(v.provider, v.model)),
    ...[...new Set(VOICES.flatMap((v) => v.languages))].flatMap((l) => sttOptions(l).map((o) => modelSubject(o.provider, o.model))),
  ];
  return [...new Set([...translationSubjects(), ...speech])];
}
