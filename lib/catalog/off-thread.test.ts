import { EventEmitter } from "node:events";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CatalogLimitError } from "./errors";
import { CatalogFileError } from "./files";

/*
 * The runner's own rules — when a file goes to a worker, the time and heap budgets, the number of workers at once —
 * with node:worker_threads' Worker replaced by one the test drives. The real worker (bundled by Next.js beside the
 * catalog route) runs in the API tests: e2e/api/adversarial.test.ts reads large files of every format through it.
 */

class FakeWorker extends EventEmitter {
  static made: FakeWorker[] = [];
  terminated = false;
  constructor(
    readonly entry: URL,
    readonly options: { workerData: { kind: string }; resourceLimits: { maxOldGenerationSizeMb: number } },
  ) {
    super();
    FakeWorker.made.push(this);
  }
  terminate() {
    this.terminated = true;
    return Promise.resolve(1);
  }
}

vi.mock("node:worker_threads", () => ({ Worker: FakeWorker }));
const { offThreadCatalogFiles } = await import("./off-thread");

const budgets = { minChars: 100, timeMs: 1_000, heapMb: 64, workers: 2 };
const big = "x".repeat(100);
const read = (content: string) => ({ format: "json" as const, content, targetLang: "lug" });
const settle = () => new Promise((r) => setImmediate(r));

describe("catalog files on worker threads", () => {
  beforeEach(() => {
    FakeWorker.made = [];
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("reads a small file on the request's thread and a large one on a worker with the heap budget", async () => {
    const files = offThreadCatalogFiles(budgets);
    const small = await files.read(read('{"a":"Hello"}'));
    expect(small.units.map((u) => u.source)).toEqual(["Hello"]);
    expect(FakeWorker.made).toHaveLength(0);

    const answer = files.read(read(big));
    await settle();
    const [worker] = FakeWorker.made;
    expect(worker.entry.pathname).toMatch(/files\.worker\.ts$/);
    expect(worker.options.workerData.kind).toBe("read");
    expect(worker.options.resourceLimits.maxOldGenerationSizeMb).toBe(64);
    worker.emit("message", { ok: true, value: { units: [], existing: [] } });
    await expect(answer).resolves.toEqual({ units: [], existing: [] });
    expect(worker.terminated).toBe(true);
  });

  it("counts content and existing together against the size that sends a file to a worker", async () => {
    const files = offThreadCatalogFiles(budgets);
    const answer = files.read({ ...read("x".repeat(60)), existing: "y".repeat(40) });
    await settle();
    expect(FakeWorker.made).toHaveLength(1);
    FakeWorker.made[0].emit("message", { ok: true, value: { units: [], existing: [] } });
    await answer;
  });

  it("a file the worker cannot read comes back as that file's error, on its field", async () => {
    const answer = offThreadCatalogFiles(budgets).read(read(big));
    await settle();
    FakeWorker.made[0].emit("message", {
      ok: false,
      fileError: { field: "existing", format: "json", problem: "unexpected token", line: 3, column: 7, limit: false },
    });
    const err = await answer.catch((e) => e);
    expect(err).toBeInstanceOf(CatalogFileError);
    expect(err.field).toBe("existing");
    expect(err.error.message).toBe("json: unexpected token (line 3, column 7)");
    expect(err.error).not.toBeInstanceOf(CatalogLimitError);
  });

  it("stops a worker over its time budget and refuses the file as over a limit", async () => {
    vi.useFakeTimers();
    const answer = offThreadCatalogFiles(budgets)
      .read(read(big))
      .catch((e) => e);
    await vi.advanceTimersByTimeAsync(1_001);
    const err = await answer;
    expect(err).toBeInstanceOf(CatalogFileError);
    expect(err.error).toBeInstanceOf(CatalogLimitError);
    expect(err.error.message).toBe("json: it takes longer than 1 s to read");
    expect(FakeWorker.made[0].terminated).toBe(true);
  });

  it("a worker out of heap refuses the file as over a limit; any other failure is the server's", async () => {
    const files = offThreadCatalogFiles(budgets);
    const oom = files.write({ format: "yaml", content: big, translations: [], sourceLang: "en", targetLang: "lug" }).catch((e) => e);
    const crash = files.read(read(big)).catch((e) => e);
    await settle();
    FakeWorker.made[0].emit("error", Object.assign(new Error("heap"), { code: "ERR_WORKER_OUT_OF_MEMORY" }));
    FakeWorker.made[1].emit("exit", 1);
    expect((await oom).error.message).toBe("yaml: it needs more than 64 MB of memory to write");
    expect(await crash).not.toBeInstanceOf(CatalogFileError);
    expect((await crash).message).toMatch(/exited \(code 1\) without an answer/);
  });

  it("runs at most `workers` at once; the next starts when one ends", async () => {
    const files = offThreadCatalogFiles(budgets);
    const answers = [files.read(read(big)), files.read(read(big)), files.read(read(big))];
    await settle();
    expect(FakeWorker.made).toHaveLength(2);
    FakeWorker.made[0].emit("message", { ok: true, value: { units: [], existing: [] } });
    await answers[0];
    await settle();
    expect(FakeWorker.made).toHaveLength(3);
    for (const w of FakeWorker.made.slice(1)) w.emit("message", { ok: true, value: { units: [], existing: [] } });
    await Promise.all(answers);
  });
});
