import { Availability, type AvailabilityChecker, modelSubject } from "@/lib/availability";
import { type AvailabilityStore, MemoryAvailabilityStore } from "@/lib/availability/store";
import type { Config } from "@/lib/config";
import shippedSubjects from "@/lib/languages/catalogue-subjects.json";
import { hfModels, isDefaultCatalogue, type ResolvedHfModels } from "@/lib/languages/models";
import { translationSubjects } from "@/lib/languages/pairs";
import { sttOptions, VOICES } from "@/lib/languages/speech";
import type { Registry } from "@/lib/providers";
import { catalogueSettings } from "@/lib/providers/deployment";
import { hubModelAvailability } from "@/lib/providers/hub";
import { inProcessFetch } from "@/lib/providers/sandbox/emulator";
import { type StoreSettings, sharedBackend } from "@/lib/store";
import { storeSettings } from "./settings";

const HF_MODEL_SUBJECT = "model:provider_c:";

/**
 * Availability's store: the rate limiter's (Upstash, Redis or in process, same variables and timeout), the shared
 * ones loaded in the background (lib/store). One that cannot be built fails every call, so availability stays per
 * instance.
 */
export function availabilityStore(settings: StoreSettings, now?: () => number): AvailabilityStore {
  if (settings.backend === "memory") return new MemoryAvailabilityStore(now);
  const shared = sharedBackend<AvailabilityStore>("availability", settings, {
    upstash: async (url, token, timeoutMs) =>
      new (await import("@/lib/availability/shared-store")).UpstashAvailabilityStore({ url, token, timeoutMs }),
    redis: async (url, timeoutMs) => new (await import("@/lib/availability/shared-store")).RedisAvailabilityStore({ url, timeoutMs }),
  });
  return {
    name: settings.backend as AvailabilityStore["name"],
    getMany: async (keys) => (await shared.get()).getMany(keys),
    set: async (key, value, ttlMs) => (await shared.get()).set(key, value, ttlMs),
  };
}

/**
 * Availability from the configuration: AVAILABILITY_TTL_SECONDS, AVAILABILITY_SYNC_SECONDS (at most the TTL), the Hub
 * at HF_HUB_URL (HF_TOKEN sent) — or, when provider_c runs in sandbox mode, the Hugging Face emulator's model
 * information.
 */
export function createAvailability(
  c: Config,
  providers: Registry,
  deps: { now?: () => number; checker?: AvailabilityChecker; store?: AvailabilityStore } = {},
) {
  const store = storeSettings(c, c.RATE_LIMIT_TIMEOUT_MS);
  const ttl = c.AVAILABILITY_TTL_SECONDS;
  const sync = Math.min(ttl, c.AVAILABILITY_SYNC_SECONDS);
  return new Availability({
    store: deps.store ?? availabilityStore(store, deps.now),
    ttlMs: ttl * 1000,
    syncMs: sync * 1000,
    timeoutMs: store.timeoutMs,
    now: deps.now,
    checker: deps.checker ?? hubChecker(c, providers),
    checkable: (subject) => subject.startsWith(HF_MODEL_SUBJECT),
  });
}

/** Asks the Hub (or, in sandbox mode, the Hugging Face emulator) about `model:provider_c:<id>` subjects. */
function hubChecker(c: Config, providers: Registry): AvailabilityChecker {
  return (subject) => {
    const model = subject.slice(HF_MODEL_SUBJECT.length);
    const emulator = providers.clients.provider_c.mode === "sandbox" ? providers.emulators.provider_c : undefined;
    if (emulator) return hubModelAvailability(model, { baseUrl: "http://hf.sandbox.invalid", fetch: inProcessFetch(emulator.handler) });
    return hubModelAvailability(model, { baseUrl: c.HF_HUB_URL, token: c.HF_TOKEN });
  };
}

/** For the operator view of /health: what is unavailable, why, and when it is re-checked. */
export function availabilityReport(availability: Availability) {
  const unavailable = availability.report();
  return { store: availability.storeName, unavailable_count: unavailable.length, unavailable };
}

/**
 * Every model the catalogue routes to (translation, STT, TTS): what the listing checks before it answers. It depends on
 * the catalogue's settings alone (the model map, HF_ASR_MODEL: fixed for the process). For the built-in catalogue it is
 * the list shipped in lib/languages/catalogue-subjects.json (`npm run catalogue:data` writes it with subjectsOf, and a
 * test holds the two equal): working it out walks every pair's routes, ≈35 ms of a cold function's first listing.
 */
export function catalogueSubjects(models: ResolvedHfModels = hfModels()): readonly string[] {
  return isDefaultCatalogue(models) ? shippedSubjects.subjects : subjectsOf(models);
}

/**
 * catalogueSubjects worked out from the tables, once per model map and ASR model (each listing request and each
 * language list of the compatible protocols walked every pair's routes for ≈1.2 ms of CPU when it was worked out every
 * time).
 */
export function subjectsOf(models: ResolvedHfModels): readonly string[] {
  const asrModel = catalogueSettings().hfAsrModel;
  let worked = catalogues.get(models);
  if (worked?.asrModel !== asrModel) {
    const speech = [
      ...VOICES.map((v) => modelSubject(v.provider, v.model)),
      ...[...new Set(VOICES.flatMap((v) => v.languages))].flatMap((l) => sttOptions(l).map((o) => modelSubject(o.provider, o.model))),
    ];
    catalogues.set(models, (worked = { asrModel, subjects: [...new Set([...translationSubjects(models), ...speech])] }));
  }
  return worked.subjects;
}

const catalogues = new WeakMap<ResolvedHfModels, { asrModel: string; subjects: readonly string[] }>();
