import { readFile, writeFile } from "node:fs/promises";
import type { Lugha, Provider } from "../client.js";
import { catalog } from "./catalog.js";

/**
 * The commands of the `lugha` CLI, one entry each: its options (node:util parseArgs), its help, and what it does.
 * A new command is one more entry in COMMANDS; main.ts parses, checks, runs it and maps errors to exit codes.
 */
export interface OptionSpec {
  type: "string" | "boolean";
  short?: string;
  /** Shown in the help, e.g. `<lang>`. */
  placeholder?: string;
  description: string;
  /** Allowed values, checked before the command runs. */
  choices?: readonly string[];
}

export interface CommandContext {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
  /** A client on LUGHA_BASE_URL with LUGHA_API_KEY; reading it without a key (when `needsKey`) ends with exit code 4. */
  client: Lugha;
  /** Writes the command's result: with --json the raw response as JSON, else `human()`'s text; both on stdout. */
  result(raw: unknown, human: () => string): void;
  /** A message for the person at the terminal (stderr). */
  note(message: string): void;
  /** Raw bytes to stdout (speak --out -). */
  writeStdout(bytes: Uint8Array): Promise<void>;
  readStdin(): Promise<string>;
  /** Waits (catalog: for a provider's budget); tests pass one that does not. */
  sleep(ms: number): Promise<void>;
  /** The exit code when the command ends without an error but did only part of what was asked (default 0). */
  setExitCode(code: number): void;
}

export interface Command {
  summary: string;
  /** Positional arguments as shown in the usage line, e.g. `<text>`. */
  args: string;
  options: Record<string, OptionSpec>;
  examples: string[];
  /** false: runs without LUGHA_API_KEY (default true). */
  needsKey?: boolean;
  run(ctx: CommandContext): Promise<void>;
}

/** A mistake in the command line (exit code 2). */
export class UsageError extends Error {
  override name = "UsageError";
}

const PROVIDERS = ["auto", "provider_a", "provider_b", "provider_c"] as const;
const providerOption: OptionSpec = {
  type: "string",
  placeholder: "<provider>",
  description: "auto (default), provider_a, provider_b or provider_c",
  choices: PROVIDERS,
};

const str = (ctx: CommandContext, name: string): string | undefined => {
  const value = ctx.values[name];
  return typeof value === "string" ? value : undefined;
};

function required(ctx: CommandContext, name: string): string {
  const value = str(ctx, name);
  if (value === undefined || value === "") throw new UsageError(`--${name} is required`);
  return value;
}

/** The text argument: the positional, or standard input when it is `-`. */
async function textArgument(ctx: CommandContext, what: string): Promise<string> {
  if (ctx.positionals.length !== 1)
    throw new UsageError(`expected one ${what} argument (quote it; - reads standard input), got ${ctx.positionals.length}`);
  const text = ctx.positionals[0] === "-" ? (await ctx.readStdin()).replace(/\r?\n$/, "") : ctx.positionals[0];
  if (!text.trim()) throw new UsageError(`the ${what} is empty`);
  return text;
}

async function readLocalFile(file: string): Promise<Uint8Array> {
  try {
    return await readFile(file);
  } catch (err) {
    throw new UsageError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

export const COMMANDS: Record<string, Command> = {
  translate: {
    summary: "Translate a text",
    args: "<text>",
    options: {
      to: { type: "string", placeholder: "<lang>", description: "target language, e.g. lug, sw, yo, tw (required)" },
      from: { type: "string", placeholder: "<lang>", description: "source language (default: detected)" },
      provider: providerOption,
      "no-cache": { type: "boolean", description: "ask the providers again instead of answering from the cache" },
    },
    examples: ['lugha translate "Good morning" --to lug', "echo 'Thank you' | lugha translate - --from en --to tw --json"],
    async run(ctx) {
      const target_lang = required(ctx, "to");
      const text = await textArgument(ctx, "text");
      const request = { text, target_lang, source_lang: str(ctx, "from"), provider: str(ctx, "provider") as Provider | undefined };
      const response = await ctx.client.translate(request, { noCache: ctx.values["no-cache"] === true });
      if (response.sandbox) ctx.note("note: served by a sandbox emulator; not a real translation");
      ctx.result(response, () => response.translated_text);
    },
  },

  detect: {
    summary: "Detect the language of one or more texts",
    args: "<text>...",
    options: {},
    examples: ['lugha detect "Wasuze otya nno?"', 'lugha detect "Good morning" "Habari za asubuhi" --json'],
    async run(ctx) {
      if (ctx.positionals.length === 0) throw new UsageError("expected at least one text to detect");
      const texts = ctx.positionals.length === 1 && ctx.positionals[0] === "-" ? [await textArgument(ctx, "text")] : ctx.positionals;
      const response = await ctx.client.detect(texts.length === 1 ? texts[0] : texts);
      ctx.result(response, () =>
        response.results.map((r) => `${r.language}\t${r.confidence.toFixed(2)}\t${r.reliable ? "reliable" : `unreliable: ${r.reason}`}`).join("\n"),
      );
    },
  },

  speak: {
    summary: "Text to speech into a WAV file",
    args: "<text>",
    options: {
      lang: { type: "string", placeholder: "<lang>", description: "language of the text (required)" },
      voice: { type: "string", placeholder: "<voice>", description: "voice id from `lugha languages --capability tts --json`" },
      provider: providerOption,
      out: { type: "string", short: "o", placeholder: "<file>", description: "where to write the audio (required; - for standard output)" },
    },
    examples: ['lugha speak "Oli otya" --lang lug --out hello.wav'],
    async run(ctx) {
      const out = required(ctx, "out");
      const language = required(ctx, "lang");
      const text = await textArgument(ctx, "text");
      const request = { text, language, voice: str(ctx, "voice"), provider: str(ctx, "provider") as Provider | undefined };
      const { audio, ...response } = await ctx.client.speak(request);
      if (out === "-") await ctx.writeStdout(audio);
      else {
        try {
          await writeFile(out, audio);
        } catch (err) {
          throw new UsageError(`cannot write ${out}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
        }
        ctx.note(
          `wrote ${audio.byteLength} bytes of ${response.content_type} (${response.audio_duration_seconds} s, voice ${response.voice}, ${response.model_used}) to ${out}`,
        );
      }
      if (response.sandbox) ctx.note("note: served by a sandbox emulator; not real speech synthesis");
      // With --out - stdout is the audio: --json has nowhere to go.
      if (out !== "-") ctx.result(response, () => "");
    },
  },

  transcribe: {
    summary: "Speech to text of a recording (a file, or a URL the server fetches)",
    args: "<file>",
    options: {
      lang: { type: "string", placeholder: "<lang>", description: "language spoken (required)" },
      url: { type: "string", placeholder: "<https://…>", description: "transcribe the recording at this URL instead of a file" },
      provider: providerOption,
    },
    examples: ["lugha transcribe speech.wav --lang lug", "lugha transcribe --url https://example.org/speech.mp3 --lang sw --json"],
    async run(ctx) {
      const language = required(ctx, "lang");
      const provider = str(ctx, "provider") as Provider | undefined;
      const url = str(ctx, "url");
      if (url !== undefined && ctx.positionals.length) throw new UsageError("give a file or --url, not both");
      if (url === undefined && ctx.positionals.length !== 1) throw new UsageError("expected one audio file (or --url)");
      const request =
        url !== undefined
          ? { audioUrl: url, language, provider }
          : { audio: await readLocalFile(ctx.positionals[0]), filename: ctx.positionals[0].split(/[\\/]/).pop(), language, provider };
      const response = await ctx.client.transcribe(request);
      if (response.sandbox) ctx.note("note: served by a sandbox emulator; not real speech recognition");
      ctx.result(response, () => response.transcript);
    },
  },

  usage: {
    summary: "Usage of the key: requests, characters, cache hits, errors",
    args: "",
    options: {
      from: { type: "string", placeholder: "<YYYY-MM-DD>", description: "first day (default: 29 days before --to)" },
      to: { type: "string", placeholder: "<YYYY-MM-DD>", description: "last day (default: today, UTC)" },
      "group-by": {
        type: "string",
        placeholder: "<group>",
        description: "day (default), endpoint, status, language_pair or provider",
        choices: ["day", "endpoint", "status", "language_pair", "provider"],
      },
    },
    examples: ["lugha usage", "lugha usage --group-by endpoint --json"],
    async run(ctx) {
      if (ctx.positionals.length) throw new UsageError("usage takes no arguments");
      const groupBy = str(ctx, "group-by") as "day" | "endpoint" | "status" | "language_pair" | "provider" | undefined;
      const query = { from: str(ctx, "from"), to: str(ctx, "to"), group_by: groupBy };
      const response = await ctx.client.usage(query);
      ctx.result(response, () => {
        const group = response.group_by;
        const rows = response.rows.map((r) => [String(r[group] ?? "(other)"), r.requests, r.characters, r.cache_hits, r.errors]);
        const t = response.totals;
        return table([
          [group, "requests", "characters", "cache_hits", "errors"],
          ...rows,
          ["total", t.requests, t.characters, t.cache_hits, t.errors],
        ]);
      });
    },
  },

  languages: {
    summary: "Languages and who translates, transcribes and speaks them",
    args: "",
    options: {
      capability: { type: "string", placeholder: "<capability>", description: "translation, stt or tts", choices: ["translation", "stt", "tts"] },
      provider: { ...providerOption, description: "only languages this provider serves", choices: PROVIDERS.slice(1) },
      source: { type: "string", placeholder: "<lang>", description: "only languages this source translates into" },
    },
    examples: ["lugha languages --capability tts"],
    async run(ctx) {
      if (ctx.positionals.length) throw new UsageError("languages takes no arguments");
      const query = {
        capability: str(ctx, "capability") as "translation" | "stt" | "tts" | undefined,
        provider: str(ctx, "provider") as Exclude<Provider, "auto"> | undefined,
        source: str(ctx, "source"),
      };
      const response = await ctx.client.languages(query);
      ctx.result(response, () =>
        table([
          ["code", "name", "translation", "stt", "tts"],
          ...response.languages.map((l) => [l.code, l.name, yes(l.translation.supported), yes(l.stt.supported), yes(l.tts.supported)]),
        ]),
      );
    },
  },

  catalog,

  key: {
    summary: "The API key in use: name, expiry, requests made, rate limits",
    args: "",
    options: {},
    examples: ["lugha key --json"],
    async run(ctx) {
      if (ctx.positionals.length) throw new UsageError("key takes no arguments");
      const k = await ctx.client.keyInfo();
      ctx.result(k, () =>
        [
          `name          ${k.name}`,
          `key           ${k.display_prefix}…`,
          `expires       ${k.expires_at}`,
          `requests      ${k.requests_total}`,
          `rate limits   ${Object.entries(k.rate_limits)
            .map(([bucket, r]) => `${bucket} ${r.limit}/${r.window_seconds}s`)
            .join(", ")}`,
        ].join("\n"),
      );
    },
  },
};

const yes = (b: boolean) => (b ? "yes" : "-");

function table(rows: (string | number)[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  return rows
    .map((r) =>
      r
        .map((c, i) => (typeof c === "number" ? String(c).padStart(widths[i]) : String(c).padEnd(widths[i])))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}
