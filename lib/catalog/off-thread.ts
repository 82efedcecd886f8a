import { Worker } from "node:worker_threads";
import { ApiError } from "@/lib/kit/errors";
import { Semaphore } from "@/lib/kit/semaphore";
import { CatalogLimitError } from "./errors";
import {
  CatalogFileError,
  type CatalogFileErrorData,
  type CatalogFiles,
  fileErrorFromData,
  inProcessCatalogFiles,
  type ReadFilesRequest,
  type ReadFilesResult,
  type WriteFileRequest,
  type WriteFileResult,
} from "./files";
import { FILE_WORK_HEAP_MB, FILE_WORK_TIME_BUDGET_MS, MAX_FILE_WORKERS, OFF_THREAD_MIN_CHARS } from "./limits";

/*
 * A catalog's files read and written on worker threads (./files.worker.ts), one short-lived worker per job: the
 * request's thread (and every other request on it) never waits on a parser, and a worker over its time or heap
 * budget is stopped without harm to the server. A worker per job rather than a pool: a catalog request takes seconds
 * upstream, next to which starting a worker is cheap, and a worker that has parsed a hostile file is not reused.
 * Small files stay on the request's thread (OFF_THREAD_MIN_CHARS).
 */

export type WorkerJob = { kind: "read"; request: ReadFilesRequest } | { kind: "write"; request: WriteFileRequest };
export type WorkerReply =
  | { ok: true; value: ReadFilesResult | WriteFileResult }
  | { ok: false; fileError: CatalogFileErrorData }
  | { ok: false; crash: string };

export interface OffThreadBudgets {
  minChars: number;
  timeMs: number;
  heapMb: number;
  workers: number;
}

const BUDGETS: OffThreadBudgets = {
  minChars: OFF_THREAD_MIN_CHARS,
  timeMs: FILE_WORK_TIME_BUDGET_MS,
  heapMb: FILE_WORK_HEAP_MB,
  workers: MAX_FILE_WORKERS,
};

export function offThreadCatalogFiles(budgets: OffThreadBudgets = BUDGETS): CatalogFiles {
  const slots = new Semaphore(budgets.workers);
  const run = async <T>(job: WorkerJob): Promise<T> => {
    let release: () => void;
    try {
      release = await slots.acquire(Date.now() + budgets.timeMs);
    } catch {
      throw new ApiError("SERVICE_UNAVAILABLE", "The server is busy reading other catalog files. Try again in a few seconds.", {
        headers: { "Retry-After": "5" },
      });
    }
    try {
      return (await inWorker(job, budgets)) as T;
    } finally {
      release();
    }
  };
  const large = (...texts: (string | undefined)[]) => texts.reduce((n, t) => n + (t?.length ?? 0), 0) >= budgets.minChars;
  return {
    read: (request) => (large(request.content, request.existing) ? run({ kind: "read", request }) : inProcessCatalogFiles.read(request)),
    write: (request) => (large(request.content) ? run({ kind: "write", request }) : inProcessCatalogFiles.write(request)),
  };
}

function inWorker(job: WorkerJob, budgets: OffThreadBudgets): Promise<ReadFilesResult | WriteFileResult> {
  const verb = job.kind;
  const overBudget = (problem: string) => new CatalogFileError("content", new CatalogLimitError(job.request.format, problem));
  return new Promise((resolve, reject) => {
    // The URL form lets the bundler (Turbopack) build the worker's own entry beside the route that uses it.
    const worker = new Worker(new URL("./files.worker.ts", import.meta.url), {
      workerData: job,
      resourceLimits: { maxOldGenerationSizeMb: budgets.heapMb, maxYoungGenerationSizeMb: Math.min(64, budgets.heapMb / 4) },
    });
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      fn();
    };
    const timer = setTimeout(() => settle(() => reject(overBudget(`it takes longer than ${budgets.timeMs / 1000} s to ${verb}`))), budgets.timeMs);
    worker.once("message", (reply: WorkerReply) =>
      settle(() => {
        if (reply.ok) resolve(reply.value);
        else if ("fileError" in reply) reject(fileErrorFromData(reply.fileError));
        else reject(new Error(`the catalog worker failed (${reply.crash})`));
      }),
    );
    worker.once("error", (err: Error & { code?: string }) =>
      settle(() =>
        reject(err.code === "ERR_WORKER_OUT_OF_MEMORY" ? overBudget(`it needs more than ${budgets.heapMb} MB of memory to ${verb}`) : err),
      ),
    );
    worker.once("exit", (code) => settle(() => reject(new Error(`the catalog worker exited (code ${code}) without an answer`))));
  });
}
