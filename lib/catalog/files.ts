import { CatalogLimitError, CatalogParseError, CatalogRenderError } from "./errors";
import { loadCatalogFormat, parseCatalog, readExisting, renderCatalog, targetEntries } from "./index";
import type { CatalogEntry, CatalogFormat, ExistingTranslation } from "./types";

/*
 * The two steps of a catalog request that work on the caller's files — reading them before the translation, writing
 * the translated file after it — as plain data in and plain data out, so that they can run on another thread
 * (./off-thread.ts): a large or hostile file then never holds the server's event loop, and a runaway one is stopped.
 * Writing parses the file again rather than keeping the parsed document (which holds functions and cannot cross
 * threads): the parse is linear and, for a large file, off the request's thread.
 */

export interface ReadFilesRequest {
  format: CatalogFormat;
  content: string;
  targetLang: string;
  /** A previously translated file, to keep what it already has. */
  existing?: string;
  /** id → source hash kept beside `existing` (formats with no room for it in the file). */
  sidecar?: Readonly<Record<string, string>>;
}

export interface ReadFilesResult {
  /** The entries to translate for the target language (plural forms expanded into the target's categories). */
  units: CatalogEntry[];
  /** The translations `existing` holds, by entry id. */
  existing: [string, ExistingTranslation][];
}

export interface WriteFileRequest {
  format: CatalogFormat;
  /** The source file, as read. */
  content: string;
  translations: [string, string][];
  sourceLang: string;
  targetLang: string;
}

export interface WriteFileResult {
  content: string;
  /** Entries whose translation could not be written in the format (not well-formed markup): left out of the file. */
  unwritable: string[];
}

/** The file-bound steps of a catalog request: in process (./files.ts) or on worker threads (./off-thread.ts). */
export interface CatalogFiles {
  read(request: ReadFilesRequest): Promise<ReadFilesResult>;
  write(request: WriteFileRequest): Promise<WriteFileResult>;
}

/** A file of the request that cannot be read: `field` names which ("content" or "existing"). */
export class CatalogFileError extends Error {
  override readonly name = "CatalogFileError";
  constructor(
    readonly field: "content" | "existing",
    readonly error: CatalogParseError,
  ) {
    super(error.message);
  }
}

export function readFiles(request: ReadFilesRequest): ReadFilesResult {
  const { format, targetLang } = request;
  const units = reading("content", () => targetEntries(parseCatalog(format, request.content), targetLang));
  const existing =
    request.existing === undefined
      ? []
      : [...reading("existing", () => readExisting(format, request.existing!, { targetLang, sidecar: request.sidecar }))];
  return { units, existing };
}

/** The translated file; a translation that cannot be written into it is left out and named in `unwritable`. */
export function writeFile(request: WriteFileRequest): WriteFileResult {
  const doc = reading("content", () => parseCatalog(request.format, request.content)).doc;
  const translations = new Map(request.translations);
  const unwritable: string[] = [];
  for (;;) {
    try {
      const content = renderCatalog(request.format, doc, translations, { sourceLang: request.sourceLang, targetLang: request.targetLang });
      return { content, unwritable };
    } catch (err) {
      if (!(err instanceof CatalogRenderError) || !translations.has(err.id)) throw err;
      translations.delete(err.id);
      unwritable.push(err.id);
    }
  }
}

/** The steps on the request's own thread: for small files, and where no worker can run (tests of the logic). */
export const inProcessCatalogFiles: CatalogFiles = {
  read: async (request) => readFiles(await withFormatLoaded(request)),
  write: async (request) => writeFile(await withFormatLoaded(request)),
};

/** The request, once its format's module is loaded (readFiles and writeFile are synchronous). */
export async function withFormatLoaded<R extends { format: CatalogFormat }>(request: R): Promise<R> {
  await loadCatalogFormat(request.format);
  return request;
}

function reading<T>(field: CatalogFileError["field"], run: () => T): T {
  try {
    return run();
  } catch (err) {
    throw err instanceof CatalogParseError ? new CatalogFileError(field, err) : err;
  }
}

/** A CatalogFileError as structured-cloneable data, to cross from a worker thread. */
export interface CatalogFileErrorData {
  field: CatalogFileError["field"];
  format: CatalogFormat;
  problem: string;
  line?: number;
  column?: number;
  limit: boolean;
}

export function fileErrorData(err: CatalogFileError): CatalogFileErrorData {
  const { format, problem, line, column } = err.error;
  return { field: err.field, format, problem, line, column, limit: err.error instanceof CatalogLimitError };
}

export function fileErrorFromData(data: CatalogFileErrorData): CatalogFileError {
  const Kind = data.limit ? CatalogLimitError : CatalogParseError;
  return new CatalogFileError(data.field, new Kind(data.format, data.problem, data.line, data.column));
}
