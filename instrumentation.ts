// Runs once when the server starts (Next.js instrumentation hook). The hook is also compiled for the Edge runtime, so
// the Node.js start-up lives in its own file, imported only when running on Node.js (as the Next.js docs advise).
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { registerNode } = await import("./instrumentation-node");
    await registerNode();
  }
}
