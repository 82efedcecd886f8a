import { mkdir, readFile, writeFile } from "node:fs/promises";
import { basename, dirname, extname, join } from "node:path";
import type { CatalogFormat, CatalogResponse } from "../client.js";
import { LughaError } from "../errors.js";
import { type Command, type CommandContext, UsageError } from "./commands.js";

/**
 * `lugha catalog <file> --to lug,ach --out <dir>`: each target file written next to (or in --out as) the source's
 * name with the language changed, continued from what is already there. Formats whose files have no room for source
 * hashes (json, android, strings, yaml, srt, vtt, markdown) keep them in `<target file>.lugha.json` beside the file,
 * so that the next run sends only new or changed entries.
 *
 * A target goes round until nothing is pending: when the provider's budget is spent the server says when it admits
 * more (retry_after_seconds) and the command waits that long (at most --max-wait seconds in all); a 429 or 503 from
 * the server is waited for the same way. Exit 0 only when every target has nothing pending or failed (else 5).
 */

const FORMATS = ["json", "po", "xliff", "android", "strings", "arb", "yaml", "srt", "vtt", "markdown"] as const;

const BY_EXTENSION: Record<string, CatalogFormat> = {
  ".json": "json",
  ".arb": "arb",
  ".po": "po",
  ".pot": "po",
  ".xlf": "xliff",
  ".xliff": "xliff",
  ".xml": "android",
  ".strings": "strings",
  ".yml": "yaml",
  ".yaml": "yaml",
  ".srt": "srt",
  ".vtt": "vtt",
  ".md": "markdown",
  ".markdown": "markdown",
};

const HASHES_IN_FILE = new Set<CatalogFormat>(["po", "arb", "xliff"]);

/** The target file's name: the source language replaced where the name holds it (en.json, app_en.arb), else added. */
export function targetName(source: string, from: string, to: string): string {
  const ext = extname(source);
  const stem = basename(source, ext);
  const outExt = ext === ".pot" ? ".po" : ext;
  const parts = stem.split(/([._-])/);
  const at = parts.findIndex((p) => p.toLowerCase() === from.toLowerCase());
  if (at >= 0) {
    parts[at] = to;
    // A region after the language (en-US, en_GB) goes with it.
    if (/^[-_]$/.test(parts[at + 1] ?? "") && /^[A-Z]{2}$/.test(parts[at + 2] ?? "")) parts.splice(at + 1, 2);
    return parts.join("") + outExt;
  }
  return ext === ".pot" ? `${to}.po` : `${stem}.${to}${outExt}`;
}

async function readIfThere(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new UsageError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

async function write(file: string, text: string): Promise<void> {
  try {
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, text);
  } catch (err) {
    throw new UsageError(`cannot write ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

function bar(done: number, total: number, width = 24): string {
  const filled = total === 0 ? width : Math.round((done / total) * width);
  return `[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${done}/${total}`;
}

interface Summary {
  lang: string;
  file: string;
  response: CatalogResponse;
  calls: number;
}

async function oneTarget(
  ctx: CommandContext,
  opts: { file: string; content: string; format: CatalogFormat; from: string; to: string; out: string; maxWait: number; noCache: boolean },
): Promise<Summary> {
  const { format, to, out } = opts;
  const sidecar = `${out}.lugha.json`;
  let existing = await readIfThere(out);
  let hashes: Record<string, string> | undefined;
  if (existing !== undefined && !HASHES_IN_FILE.has(format)) {
    const kept = await readIfThere(sidecar);
    try {
      hashes = kept === undefined ? undefined : (JSON.parse(kept) as { source_hashes?: Record<string, string> }).source_hashes;
    } catch {
      hashes = undefined;
    }
  }
  let waited = 0;
  let calls = 0;
  for (;;) {
    let response: CatalogResponse;
    try {
      response = await ctx.client.translateCatalog(
        {
          format,
          content: opts.content,
          source_lang: opts.from,
          target_lang: to,
          ...(existing !== undefined && { existing }),
          ...(hashes && { source_hashes: hashes }),
        },
        { noCache: opts.noCache },
      );
    } catch (err) {
      // A 429 or 503 the client's own retries did not outlast: wait as asked, within --max-wait.
      if (!(err instanceof LughaError) || (err.status !== 429 && err.status !== 503)) throw err;
      const wait = err.retryAfter ?? 5;
      if (waited + wait > opts.maxWait) throw err;
      ctx.note(`${to}: the service answered ${err.status}; waiting ${wait} s`);
      await ctx.sleep(wait * 1000);
      waited += wait;
      continue;
    }
    calls += response.upstream_calls;
    await write(out, response.content);
    if (!HASHES_IN_FILE.has(format)) await write(sidecar, `${JSON.stringify({ source_hashes: response.source_hashes }, null, 2)}\n`);
    existing = response.content;
    hashes = response.source_hashes;
    const e = response.entries;
    const done = e.translated + e.kept;
    ctx.note(
      `${to.padEnd(6)} ${bar(done, e.total)}${e.pending ? `  ${e.pending} pending` : ""}${e.failed.length ? `  ${e.failed.length} failed` : ""}`,
    );
    if (e.pending === 0) return { lang: to, file: out, response, calls };
    const retry = response.retry_after_seconds;
    if (retry === null) {
      // The deadline ended the call: go on at once, as long as it moved forward.
      if (e.translated === 0) return { lang: to, file: out, response, calls };
      continue;
    }
    if (waited + retry > opts.maxWait) {
      ctx.note(`${to}: the provider's budget admits more in ${retry} s, beyond --max-wait; run again later to continue`);
      return { lang: to, file: out, response, calls };
    }
    ctx.note(`${to}: the provider's budget is spent for now; waiting ${retry} s`);
    await ctx.sleep(retry * 1000);
    waited += retry;
  }
}

export const catalog: Command = {
  summary: "Translate a catalog file (JSON, PO, XLIFF, Android, .strings, ARB, YAML, SRT, VTT, Markdown) into one or more languages",
  args: "<file>",
  options: {
    to: { type: "string", placeholder: "<lang,...>", description: "target languages, comma-separated (required), e.g. lug,ach,nyn" },
    from: { type: "string", placeholder: "<lang>", description: "language of the file (default en)" },
    format: { type: "string", placeholder: "<format>", description: "the file's format (default: from its extension)", choices: FORMATS },
    out: { type: "string", short: "o", placeholder: "<dir>", description: "directory for the target files (default: the source's)" },
    "max-wait": { type: "string", placeholder: "<seconds>", description: "longest total wait for a provider's budget per language (default 900)" },
    "no-cache": { type: "boolean", description: "ask the providers again instead of answering entries from the cache" },
  },
  examples: [
    "lugha catalog locales/en.json --to lug,ach,nyn --out locales/",
    "lugha catalog app_en.arb --to tw --from en",
    "lugha catalog captions.srt --to lug --json",
  ],
  async run(ctx) {
    if (ctx.positionals.length !== 1) throw new UsageError(`expected one catalog file, got ${ctx.positionals.length}`);
    const file = ctx.positionals[0];
    const targets = (typeof ctx.values.to === "string" ? ctx.values.to : "")
      .split(",")
      .map((t) => t.trim())
      .filter(Boolean);
    if (targets.length === 0) throw new UsageError("--to is required (one or more languages, comma-separated)");
    const given = typeof ctx.values.format === "string" ? (ctx.values.format as CatalogFormat) : undefined;
    const format = given ?? BY_EXTENSION[extname(file).toLowerCase()];
    if (!format) throw new UsageError(`cannot tell the format of ${file} from its extension: pass --format`);
    const from = typeof ctx.values.from === "string" ? ctx.values.from : "en";
    const maxWait = typeof ctx.values["max-wait"] === "string" ? Number(ctx.values["max-wait"]) : 900;
    if (!Number.isFinite(maxWait) || maxWait < 0) throw new UsageError("--max-wait must be a number of seconds");
    let content: string;
    try {
      content = await readFile(file, "utf8");
    } catch (err) {
      throw new UsageError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
    const dir = typeof ctx.values.out === "string" ? ctx.values.out : dirname(file);
    const summaries: Summary[] = [];
    for (const to of targets) {
      const out = join(dir, targetName(file, from, to));
      summaries.push(await oneTarget(ctx, { file, content, format, from, to, out, maxWait, noCache: ctx.values["no-cache"] === true }));
    }
    const incomplete = summaries.some((s) => s.response.entries.pending > 0 || s.response.entries.failed.length > 0);
    ctx.result(
      summaries.map((s) => ({ target_lang: s.lang, file: s.file, upstream_calls: s.calls, ...s.response.entries })),
      () =>
        summaries
          .map((s) => {
            const e = s.response.entries;
            const failed = e.failed.map((f) => `\n  failed ${f.key}: ${f.error}`).join("");
            return `${s.lang}\t${s.file}\ttranslated ${e.translated}, kept ${e.kept}, pending ${e.pending}, failed ${e.failed.length}, upstream calls ${s.calls}${failed}`;
          })
          .join("\n"),
    );
    if (summaries.some((s) => s.response.sandbox)) ctx.note("note: served by a sandbox emulator; not real translations");
    if (incomplete) ctx.setExitCode(5); // EXIT.INCOMPLETE
  },
};
