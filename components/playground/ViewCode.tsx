"use client";

import { CodeBlock } from "../CodeBlock";
import { usePlayground } from "./PlaygroundContext";

/** The request a playground tab just sent: a JSON body, or a multipart form (text fields and files). */
export type PlaygroundRequest = Record<string, unknown> | FormData;

/**
 * "View code" under a playground result: the request just made, as curl, JavaScript with the typed client
 * (clients/typescript) and Python requests, with this tab's key filled in, each with its own Copy button.
 */
export function ViewCode({ path, request }: { path: string; request: PlaygroundRequest }) {
  const { apiKey } = usePlayground();
  const origin = typeof window === "undefined" ? "" : window.location.origin;
  const snippets = request instanceof FormData ? multipartSnippets(origin, path, apiKey!, request) : jsonSnippets(origin, path, apiKey!, request);
  return (
    <details className="text-sm" data-testid="view-code">
      <summary className="cursor-pointer font-medium text-brand-800 underline underline-offset-2">View code</summary>
      <div className="mt-2 space-y-3">
        <CodeBlock label="curl" code={snippets.curl} />
        <CodeBlock label="JavaScript (typed client)" code={snippets.js} />
        <CodeBlock label="Python (requests)" code={snippets.python} />
      </div>
    </details>
  );
}

const shellQuote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;

/** A JSON literal read as Python: the same text but for the three keywords. */
const pythonLiteral = (json: string) => json.replaceAll(": true", ": True").replaceAll(": false", ": False").replaceAll(": null", ": None");

function jsonSnippets(origin: string, path: string, apiKey: string, body: Record<string, unknown>) {
  const json = JSON.stringify(body, null, 2);
  const curl = `curl ${origin}${path} \\
  -H "Authorization: Bearer ${apiKey}" \\
  -H "Content-Type: application/json" \\
  -d ${shellQuote(JSON.stringify(body))}`;
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
    json=${pythonLiteral(json.replaceAll("\n", "\n    "))},
    timeout=30,
)
response.raise_for_status()
print(response.json())`;
  return { curl, js, python };
}

/** multipart/form-data (speech to text): each file is read from disk under the name it had in the browser. */
function multipartSnippets(origin: string, path: string, apiKey: string, form: FormData) {
  const fields: [string, string][] = [];
  const files: [string, string][] = [];
  for (const [name, value] of form.entries()) {
    if (typeof value === "string") fields.push([name, value]);
    else files.push([name, value.name]);
  }
  const curl = [
    `curl ${origin}${path}`,
    `  -H "Authorization: Bearer ${apiKey}"`,
    ...files.map(([name, file]) => `  -F ${shellQuote(`${name}=@${file}`)}`),
    ...fields.map(([name, value]) => `  -F ${shellQuote(`${name}=${value}`)}`),
  ].join(" \\\n");
  const js = `import { readFile } from "node:fs/promises";
import { createLughaClient } from "@lugha/client";

const lugha = createLughaClient({ baseUrl: "${origin}", apiKey: "${apiKey}" });
const form = new FormData();
${[
  ...files.map(([name, file]) => `form.set(${JSON.stringify(name)}, new Blob([await readFile(${JSON.stringify(file)})]), ${JSON.stringify(file)});`),
  ...fields.map(([name, value]) => `form.set(${JSON.stringify(name)}, ${JSON.stringify(value)});`),
].join("\n")}
// A FormData body is sent as multipart/form-data, with its boundary.
const { data, error } = await lugha.POST("${path}", { body: form });
if (error) throw new Error(\`\${error.detail.code}: \${error.detail.message}\`);
console.log(data);`;
  const opens = files.map(([, file], i) => `open(${JSON.stringify(file)}, "rb") as file${i}`).join(", ");
  const python = `import requests

with ${opens}:
    response = requests.post(
        "${origin}${path}",
        headers={"Authorization": "Bearer ${apiKey}"},
        files={${files.map(([name, file], i) => `${JSON.stringify(name)}: (${JSON.stringify(file)}, file${i})`).join(", ")}},
        data={${fields.map(([name, value]) => `${JSON.stringify(name)}: ${JSON.stringify(value)}`).join(", ")}},
        timeout=60,
    )
response.raise_for_status()
print(response.json())`;
  return { curl, js, python };
}
