import { expect, it } from "vitest";
import { createEmulator, inProcessFetch } from "./index";
it("hang in-process", async () => {
  const e = createEmulator("khaya");
  e.controls.failMode = "hang";
  const f = inProcessFetch(e.handler);
  const t0 = Date.now();
  const r = await Promise.race([
    f("http://khaya.sandbox.invalid/v1/translate", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ in: "Hi", lang: "en-tw" }), signal: AbortSignal.timeout(200) }).then(() => "resolved", (e) => "rejected " + String(e)),
    new Promise((r) => setTimeout(() => r("still pending"), 2000)),
  ]);
  console.log(r, Date.now() - t0);
  e.controls.latencyMs = 100000; e.controls.failMode = "none";
  const r2 = await Promise.race([
    f("http://khaya.sandbox.invalid/v1/translate", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ in: "Hi", lang: "en-tw" }), signal: AbortSignal.timeout(200) }).then(() => "resolved", (e) => "rejected " + String(e)),
    new Promise((r) => setTimeout(() => r("still pending"), 2000)),
  ]);
  console.log(r2, Date.now() - t0);
});
