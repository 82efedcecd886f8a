import { createEmulator, inProcessFetch } from "@/lib/providers/sandbox";
import { SUNBIRD_LANGUAGE_ID_LABELS, SunbirdClient } from "@/lib/providers/sunbird";
import type { DetectDeps } from "./service";

/**
 * Detection as the app runs it in sandbox mode: a real SunbirdClient on its emulator (in process) as the identifier,
 * with a budget that counts what it is asked for (identification must never ask).
 */
export function emulatedIdentification() {
  const emulator = createEmulator("sunbird", { credential: "t" });
  const budget = { acquired: 0, tryAcquire: async () => ({ allowed: true, retryAfterSeconds: 0 }) };
  budget.tryAcquire = async () => {
    budget.acquired++;
    return { allowed: true, retryAfterSeconds: 0 };
  };
  const client = new SunbirdClient({ baseUrl: "http://sunbird.test", credential: "t", fetch: inProcessFetch(emulator.handler), budget });
  const deps: DetectDeps = { identifier: { labels: SUNBIRD_LANGUAGE_ID_LABELS, classifyLanguage: (t, req) => client.classifyLanguage(t, req) } };
  return { emulator, budget, client, deps };
}

/** Acholi and Ateso sentences of 4–8 words on which the local detector alone is not reliable. */
export const UNDECIDED_SENTENCES = [
  { code: "ach", text: "Wan wamito pii ma leng" },
  { code: "ach", text: "Latin ni ocito i tic" },
  { code: "teo", text: "Eong alosit toma etogo" },
  { code: "teo", text: "Idwe elosete asomero ka akimuj" },
  { code: "teo", text: "Ikoku lo imina akimuj" },
  { code: "teo", text: "Kesi elosete akwap kere" },
] as const;
