"use client";

import { createContext, useCallback, useContext, useEffect, useMemo, useState } from "react";
import type { RateLimitSnapshot } from "@/lib/portal/api";
import { forgetPlaygroundKey, loadPlaygroundKey, savePlaygroundKey } from "@/lib/portal/key-storage";

export type Bucket = "translate" | "batch" | "stt" | "tts" | "default";

interface PlaygroundState {
  /** The key the playground calls the API with (from this tab's sessionStorage); null until provided. */
  apiKey: string | null;
  /** False until sessionStorage has been read (avoids a flash of the "paste your key" form). */
  ready: boolean;
  setApiKey(key: string | null): void;
  /** Display prefix of the signed-in key: a pasted key must start with it. */
  expectedPrefix: string;
  /** Last X-RateLimit-* the API sent this browser, per bucket. */
  rateLimits: Partial<Record<Bucket, RateLimitSnapshot>>;
  recordRateLimit(bucket: Bucket, snapshot: RateLimitSnapshot | undefined): void;
  /** API provider id → its human name ("provider_a" → "Sunbird AI"), from the provider descriptors on the server. */
  providerNames: Record<string, string>;
  /** The provider select's options: auto and each provider with what it is chosen for (from the descriptors). */
  providerChoices: [id: string, blurb: string][];
}

const Ctx = createContext<PlaygroundState | null>(null);

export function PlaygroundProvider({
  expectedPrefix,
  providerNames,
  providerChoices,
  children,
}: {
  expectedPrefix: string;
  providerNames: Record<string, string>;
  providerChoices: [id: string, blurb: string][];
  children: React.ReactNode;
}) {
  const [apiKey, setKeyState] = useState<string | null>(null);
  const [ready, setReady] = useState(false);
  const [rateLimits, setRateLimits] = useState<Partial<Record<Bucket, RateLimitSnapshot>>>({});

  useEffect(() => {
    const stored = loadPlaygroundKey();
    // A key from another session (a different key signed in since) is not used.
    setKeyState(stored?.startsWith(expectedPrefix) ? stored : null);
    setReady(true);
  }, [expectedPrefix]);

  const setApiKey = useCallback((key: string | null) => {
    if (key) savePlaygroundKey(key);
    else forgetPlaygroundKey();
    setKeyState(key);
  }, []);

  const recordRateLimit = useCallback((bucket: Bucket, snapshot: RateLimitSnapshot | undefined) => {
    if (snapshot) setRateLimits((r) => ({ ...r, [bucket]: snapshot }));
  }, []);

  const value = useMemo(
    () => ({ apiKey, ready, setApiKey, expectedPrefix, rateLimits, recordRateLimit, providerNames, providerChoices }),
    [apiKey, ready, setApiKey, expectedPrefix, rateLimits, recordRateLimit, providerNames, providerChoices],
  );
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}

export function usePlayground(): PlaygroundState {
  const ctx = useContext(Ctx);
  if (!ctx) throw new Error("usePlayground outside PlaygroundProvider");
  return ctx;
}
