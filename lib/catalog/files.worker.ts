import { parentPort, workerData } from "node:worker_threads";
import { CatalogFileError, fileErrorData, readFiles, writeFile } from "./files";
import type { WorkerJob, WorkerReply } from "./off-thread";

/** One job of ./off-thread.ts on a worker thread of its own: the answer (or the file's error) posted back, then exit. */
const job = workerData as WorkerJob;
let reply: WorkerReply;
try {
  reply = { ok: true, value: job.kind === "read" ? readFiles(job.request) : writeFile(job.request) };
} catch (err) {
  reply =
    err instanceof CatalogFileError ? { ok: false, fileError: fileErrorData(err) } : { ok: false, crash: String((err as Error)?.name ?? "Error") };
}
parentPort!.postMessage(reply);
