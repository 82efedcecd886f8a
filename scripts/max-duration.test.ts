import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import {
  deadlineProblems,
  FUNCTION_MARGIN_SECONDS,
  maxDurationSeconds,
  operations,
  PLATFORM_MAX_DURATION_SECONDS,
  type RoutePath,
} from "../lib/api/manifest";
import { CONFIG_DEFAULTS, loadConfig } from "../lib/config";

/**
 * Next.js reads a route's `maxDuration` only as a literal in its route file: each route file of the manifest exports
 * the number lib/api/manifest.ts maxDurationSeconds gives (its deadline at the defaults plus the margin).
 */
const paths = [...new Set(operations().map((o) => o.path))] as RoutePath[];

it("every route file exports the maxDuration of the manifest", () => {
  for (const path of paths) {
    const file = `app${path.replace(/\{(\w+)\}/g, "[$1]")}/route.ts`;
    const literal = readFileSync(file, "utf8").match(/^export const maxDuration = (\d+);$/m);
    expect(literal, `${file} exports maxDuration`).not.toBeNull();
    expect(Number(literal![1]), file).toBe(maxDurationSeconds(path));
    expect(maxDurationSeconds(path)).toBeLessThanOrEqual(PLATFORM_MAX_DURATION_SECONDS);
  }
});

it("the speech deadline outlasts Sunbird's own 120 s transcription and 180 s synthesis, and ends before the function does", () => {
  expect(CONFIG_DEFAULTS.SPEECH_DEADLINE_MS).toBeGreaterThan(180_000);
  expect(CONFIG_DEFAULTS.PROVIDER_SPEECH_TIMEOUT_MS).toBeGreaterThan(180_000);
  expect(CONFIG_DEFAULTS.PROVIDER_SPEECH_TIMEOUT_MS).toBeLessThan(CONFIG_DEFAULTS.SPEECH_DEADLINE_MS);
  expect(maxDurationSeconds("/api/v1/speech/tts") - FUNCTION_MARGIN_SECONDS).toBeGreaterThanOrEqual(CONFIG_DEFAULTS.SPEECH_DEADLINE_MS / 1000);
});

it("on Vercel, a deadline raised past its function's maxDuration is a configuration problem; elsewhere it is not", () => {
  expect(deadlineProblems(loadConfig({ VERCEL: "1" }))).toEqual([]);
  const raised = { SPEECH_DEADLINE_MS: "290000", TRANSLATE_DEADLINE_MS: "20000" };
  expect(deadlineProblems(loadConfig({ VERCEL: "1", ...raised }))).toEqual([
    "SPEECH_DEADLINE_MS is 290000 ms; on Vercel /api/v1/speech/stt stops after 300 s, so it must be at most 270000 ms",
  ]);
  expect(deadlineProblems(loadConfig(raised))).toEqual([]);
});
