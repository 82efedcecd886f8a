/** Bounding and describing calls to a shared store (Redis or Upstash): used by every store the app keeps there. */

export class TimeoutError extends Error {
  constructor(ms: number) {
    super(`no answer within ${ms} ms`);
    this.name = "TimeoutError";
  }
}

/** Settles like `promise`, or rejects with a TimeoutError after `ms`. The timer never outlives the race. */
export async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(ms)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A short, public-safe description of a store failure for /health (which needs no key): the error code or kind,
 * never the message, which can carry internal host names, ports or the commands sent.
 */
export function describeFailure(err: unknown): string {
  if (err instanceof TimeoutError) return err.message;
  const code = errorCode(err);
  if (code) return `unreachable (${code})`;
  if (err instanceof Error && /timed? ?out|abort/i.test(`${err.name} ${err.message}`)) return "timed out";
  return err instanceof Error ? err.name : "error";
}

function errorCode(err: unknown): string | undefined {
  for (let e = err, depth = 0; e && typeof e === "object" && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && /^E[A-Z]+$/.test(code)) return code;
  }
  return undefined;
}

/** Times a ping for health(); never throws. */
export async function pingHealth(label: string, ping: () => Promise<unknown>): Promise<{ ok: boolean; detail: string }> {
  const started = performance.now();
  try {
    await ping();
    return { ok: true, detail: `${label} ping ${(performance.now() - started).toFixed(1)} ms` };
  } catch (err) {
    return { ok: false, detail: `${label} ${describeFailure(err)}` };
  }
}
