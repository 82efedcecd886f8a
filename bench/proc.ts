/**
 * A process tree's memory and CPU, read from /proc (Linux), for the benchmark (bench/run.ts) and the operations
 * overhead (bench/operations.ts). A tree is a process and everything it started, so a server's start-up child counts
 * while it lives. Also where a server the benchmarks start writes its output (serverOutput, below).
 */
import { mkdtempSync, openSync, readdirSync, readFileSync, readSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** `pid` and its descendants (each thread's children, since a child may have been started from any thread). */
export function descendants(pid: number): number[] {
  const out = [pid];
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const kids = readFileSync(`/proc/${pid}/task/${tid}/children`, "utf8").trim();
      if (kids) for (const k of kids.split(/\s+/)) out.push(...descendants(Number(k)));
    }
  } catch {
    /* exited */
  }
  return out;
}

/** A memory field of /proc/<pid>/status in kB: VmRSS (now) or VmHWM (the kernel's high-water mark), 0 once gone. */
export function statusKb(pid: number, field: "VmRSS" | "VmHWM"): number {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

/** Summed VmRSS (or VmHWM) of a process tree, in kB. */
export function treeKb(pid: number, field: "VmRSS" | "VmHWM" = "VmRSS"): number {
  return descendants(pid).reduce((sum, p) => sum + statusKb(p, field), 0);
}

export const treeMb = (pid: number, field: "VmRSS" | "VmHWM" = "VmRSS") => Math.round(treeKb(pid, field) / 1024);

/** CPU time (user + system, ms) used so far by a process tree. */
export function cpuMs(pid: number): number {
  const tick = 1000 / 100; // USER_HZ is 100 on Linux
  return descendants(pid).reduce((sum, p) => {
    try {
      const fields = readFileSync(`/proc/${p}/stat`, "utf8").split(") ")[1].split(" ");
      return sum + (Number(fields[11]) + Number(fields[12])) * tick;
    } catch {
      return sum;
    }
  }, 0);
}

/** A window of a sampler: the highest tree RSS between window() and stop(), and the RSS when it opened (MB). */
export interface RssWindow {
  stop(): { peak: number; start: number };
}

export interface RssSampler {
  /** The highest summed VmRSS of the tree sampled so far (MB). */
  peakMb(): number;
  window(): RssWindow;
  /** Stops sampling (after one last sample); returns the peak (MB). */
  stop(): number;
}

/**
 * Samples the summed VmRSS of a process tree every `intervalMs` until stopped. Started right after spawning a server,
 * its peak covers start-up (a start-up child included, while it lives) as well as the load; windows give the peak of a
 * stretch of it (one measured run).
 */
export function rssSampler(pid: number, intervalMs = 50): RssSampler {
  let peakKb = 0;
  const windows = new Set<{ peakKb: number }>();
  const sample = () => {
    const kb = treeKb(pid);
    if (kb > peakKb) peakKb = kb;
    for (const w of windows) if (kb > w.peakKb) w.peakKb = kb;
    return kb;
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  timer.unref();
  return {
    peakMb: () => Math.round(peakKb / 1024),
    window() {
      const startKb = sample();
      const w = { peakKb: startKb };
      windows.add(w);
      return {
        stop() {
          sample();
          windows.delete(w);
          return { peak: Math.round(w.peakKb / 1024), start: Math.round(startKb / 1024) };
        },
      };
    },
    stop() {
      clearInterval(timer);
      sample();
      return Math.round(peakKb / 1024);
    },
  };
}

/**
 * Where a server under test writes its output: a file, as a log collector takes it, never a pipe read by the
 * benchmark. The benchmark drives the load from its own event loop (autocannon), and reading every access line there
 * (≈450 a second) delayed its handling of that server's responses — latency the server did not add, and only for
 * servers that log (the app, not the baseline or the floors). `stdio` goes to spawn; `tail()` reads the last `bytes` the
 * server has written. The files are deleted when the benchmark exits.
 */
export interface ServerOutput {
  stdio: ["ignore", number, number];
  tail(bytes?: number): string;
}

let outputDir: string | undefined;
let outputs = 0;

export function serverOutput(name: string): ServerOutput {
  if (!outputDir) {
    const dir = mkdtempSync(path.join(tmpdir(), "lugha-bench-log-"));
    process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
    outputDir = dir;
  }
  const file = path.join(outputDir, `${++outputs}-${name}.log`);
  const fd = openSync(file, "a+"); // appended to by the server, read here
  return {
    stdio: ["ignore", fd, fd],
    tail(bytes = 100_000) {
      const size = statSync(file).size;
      const buf = Buffer.alloc(Math.min(size, bytes));
      readSync(fd, buf, 0, buf.length, size - buf.length);
      return buf.toString("utf8");
    },
  };
}
