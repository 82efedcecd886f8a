import { parentPort, workerData } from "node:worker_threads";
import { CatalogFileError, fileErrorData, readFiles, withFormatLoaded, writeFile } from "./files";
import type { WorkerJob, WorkerReply } from "./off-thread";

/** One job of ./off-thread.ts on a worker thread of its own: the answer (or the file's error) posted back, then exit. */
async function run(job: WorkerJob): Promise<WorkerReply> {
  try {
    return { ok: true, value: job.kind === "read" ? readFiles(await withFormatLoaded(job.request)) : writeFile(await withFormatLoaded(job.request)) };
  } catch (err) {
    return err instanceof CatalogFileError
      ? { ok: false, fileError: fileErrorData(err) }
      : { ok: false, crash: String((err as Error)?.name ?? "Error") };
  }
}

run(workerData as WorkerJob).then((reply) => parentPort!.postMessage(reply));
