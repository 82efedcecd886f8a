/**
 * Translate a greeting into Luganda with the typed client, minting a key first when none is given.
 *
 *   LUGHA_URL=http://localhost:3000 [LUGHA_API_KEY=svc_…] npx tsx clients/typescript/examples/translate.ts
 */
import { createLughaClient } from "@lugha/client";

const baseUrl = process.env.LUGHA_URL ?? "http://localhost:3000";
let apiKey = process.env.LUGHA_API_KEY;

if (!apiKey) {
  const { data, error } = await createLughaClient({ baseUrl }).POST("/api/v1/auth/keys", { body: { name: "typed client example" } });
  if (error) throw new Error(`could not mint a key: ${error.detail.code}: ${error.detail.message}`);
  apiKey = data.api_key;
}

const lugha = createLughaClient({ baseUrl, apiKey });
const { data, error } = await lugha.POST("/api/v1/translate", { body: { text: "Good morning, how are you?", target_lang: "lug" } });
if (error) throw new Error(`${error.detail.code}: ${error.detail.message}`);
console.log(JSON.stringify({ translated_text: data.translated_text, provider: data.provider, quality_score: data.quality_score }));
