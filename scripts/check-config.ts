/**
 * `npm run build` step: on Vercel the build runs with the deployment's environment, so a malformed configuration
 * (lib/config) fails the deploy here, every problem listed, instead of every function at its first request. Elsewhere
 * the build machine's environment is not the server's, and the check runs at start-up (instrumentation.ts).
 */
import { deadlineProblems } from "../lib/api/manifest";
import { ConfigError, loadConfig } from "../lib/config";

if (process.env.VERCEL) {
  try {
    // The deadlines too: each must end before its function's maxDuration, or the platform would answer in their place.
    const problems = deadlineProblems(loadConfig(process.env));
    if (problems.length) throw new ConfigError(problems);
    console.log("configuration: ok");
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(err.message);
    process.exit(1);
  }
}
