"use client";

import { CodeBlock } from "../CodeBlock";
import { usePlayground } from "./PlaygroundContext";

/**
 * "View code" under a playground result: the request just made, as curl, JavaScript with the typed client
 * (clients/typescript) and Python requests, with this tab's key filled in, each with its own Copy button.
 */
export function ViewCode({ path, body }: { path: string; body: Record<string, unknown> }) {
  const { apiKey } = usePlayground();
  const origin = typeof window === "undefined" ? "" : window.location.origin;
  const json = JSON.stringify(body, null, 2);
  const curl = `curl ${origin}${path} \\
  -H "Authorization: Bearer ${apiKey}" \\
  -H "Content-Type: application/json" \\
  -d '${JSON.stringify(body).replaceAll("'", "'\\''")}'`;
  const js = `import { createLughaClient } from "@lugha/client";

const lugha = createLughaClient({ baseUrl: "${origin}", apiKey: "${apiKey}" });
const { data, error } = await lugha.POST("${path}", {
  body: ${json.replaceAll("\n", "\n  ")},
});
if (error) throw new Error(\`\${error.detail.code}: \${error.detail.message}\`);
console.log(data);`;
  const python = `import requests

response = requests.post(
    "${origin}${path}",
    headers={"Authorization": "Bearer ${apiKey}"},
    json=${json.replaceAll("\n", "\n    ").replaceAll(": true", ": True").replaceAll(": false", ": False").replaceAll(": null", ": None")},
    timeout=30,
)
response.raise_for_status()
print(response.json())`;
  return (
    <details className="text-sm" data-testid="view-code">
      <summary className="cursor-pointer font-medium text-brand-800 underline underline-offset-2">View code</summary>
      <div className="mt-2 space-y-3">
        <CodeBlock label="curl" code={curl} />
        <CodeBlock label="JavaScript (typed client)" code={js} />
        <CodeBlock label="Python (requests)" code={python} />
      </div>
    </details>
  );
}
