import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { Playground } from "@/components/playground/Playground";
import { PlaygroundProvider } from "@/components/playground/PlaygroundContext";
import { RateLimitPanel, type RuleView } from "@/components/playground/RateLimitPanel";
import { providerChoices, providerNames } from "@/components/providerNames";
import { RequestLog } from "@/components/RequestLog";
import { RevokeKey } from "@/components/RevokeKey";
import { UsageChart } from "@/components/UsageChart";
import { portalSession } from "@/lib/api/auth/session";
import { operations } from "@/lib/api/manifest";
import { listLanguages } from "@/lib/languages/listing";
import { services } from "@/lib/server";
import { MAX_TTS_CHARS } from "@/lib/speech/limits";
import { MAX_TEXT_CHARS } from "@/lib/translate/limits";
import { MAX_BATCH_ITEMS } from "@/lib/translate/schemas";
import { dashboardUsage } from "@/lib/usage/read";
import { readRequestLog, requestLogEndpoints, STATUS_FILTER } from "@/lib/usage/requests";

export const metadata: Metadata = { title: "Dashboard" };

const DAY_MS = 86_400_000;
const EXPIRY_WARNING_DAYS = 30;

const dateTime = new Intl.DateTimeFormat("en-GB", { timeZone: "UTC", dateStyle: "medium", timeStyle: "short" });
const fmt = (d: Date) => `${dateTime.format(d)} UTC`;

const BUCKETS: Omit<RuleView, "limit" | "windowSeconds">[] = [
  { bucket: "translate", endpoints: "POST /translate" },
  { bucket: "batch", endpoints: "POST /translate/batch" },
  { bucket: "stt", endpoints: "POST /speech/stt" },
  { bucket: "tts", endpoints: "POST /speech/tts" },
  { bucket: "default", endpoints: "everything else" },
];

const REQUEST_LOG_PAGE_SIZE = 25;

type SearchParams = Record<string, string | string[] | undefined>;
const param = (params: SearchParams, name: string) => {
  const v = params[name];
  return (Array.isArray(v) ? v[0] : v)?.trim().slice(0, 200) ?? "";
};

export default async function DashboardPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const session = await portalSession();
  if (session.state === "signed_out") redirect("/signin");
  if (session.state === "ended") redirect(`/signin?ended=${session.reason}`);
  const { key } = session;

  const now = new Date();
  const usage = await dashboardUsage(services().keys, key.id, 90, now.getTime());
  const params = await searchParams;
  const status = param(params, "status");
  const filters = { status: STATUS_FILTER.test(status) ? status : "", endpoint: param(params, "endpoint"), requestId: param(params, "request_id") };
  const page = Math.min(10_000, Math.max(1, Number.parseInt(param(params, "page"), 10) || 1));
  const [log, logEndpoints] = await Promise.all([
    readRequestLog(services().keys, key.id, filters, { page, perPage: REQUEST_LOG_PAGE_SIZE }),
    requestLogEndpoints(services().keys, key.id),
  ]);
  const endpointLabels = Object.fromEntries(operations().map((o) => [`${o.method.toUpperCase()} ${o.path}`, o.operation.summary]));
  const daysLeft = Math.ceil((key.expiresAt.getTime() - now.getTime()) / DAY_MS);
  const rules: RuleView[] = BUCKETS.map((b) => {
    const rule = services().rule(b.bucket);
    return { ...b, limit: rule.limit, windowSeconds: rule.windowMs / 1000 };
  });
  const listing = listLanguages().languages;
  const languages = listing.map((l) => ({ code: l.code, name: l.name, targets: l.translation.targets.map((t) => t.code) }));
  const sttLanguages = listing.filter((l) => l.stt.supported).map((l) => ({ code: l.code, name: l.name }));
  const names = providerNames();
  const ttsLanguages = listing
    .filter((l) => l.tts.supported)
    .map((l) => ({
      code: l.code,
      name: l.name,
      voices: l.tts.providers.flatMap((p) => p.voices.map((v) => ({ id: v.id, label: `${v.name} — ${names[p.provider] ?? p.provider}` }))),
    }));

  return (
    <div className="mx-auto max-w-6xl space-y-8 px-4 py-10 sm:px-6">
      <div>
        <h1 className="text-3xl font-bold text-slate-950">Dashboard</h1>
        <p className="mt-1 text-slate-800">
          Signed in with the key <strong>“{key.name}”</strong>.
        </p>
      </div>

      {daysLeft <= EXPIRY_WARNING_DAYS && (
        <div role="alert" className="rounded-md border border-amber-400 bg-amber-50 p-4 text-amber-950">
          <strong>
            This key expires in {daysLeft} {daysLeft === 1 ? "day" : "days"}
          </strong>{" "}
          ({fmt(key.expiresAt)}). Create a new key and switch your apps to it before then; an expired key is refused with 401.
        </div>
      )}

      <section aria-labelledby="key-title" className="grid gap-6 md:grid-cols-[2fr_1fr]">
        <div className="card">
          <h2 id="key-title" className="text-xl font-semibold text-slate-950">
            Your key
          </h2>
          <dl className="mt-4 grid grid-cols-[max-content_1fr] gap-x-6 gap-y-2 text-sm">
            <dt className="text-slate-700">Name</dt>
            <dd className="font-medium" data-testid="key-name">
              {key.name}
            </dd>
            <dt className="text-slate-700">Key</dt>
            <dd>
              <code className="font-mono" data-testid="key-prefix">
                {key.displayPrefix}…
              </code>{" "}
              <span className="text-slate-700">(only the start is ever shown)</span>
            </dd>
            <dt className="text-slate-700">Created</dt>
            <dd>{fmt(key.createdAt)}</dd>
            <dt className="text-slate-700">Expires</dt>
            <dd className={daysLeft <= EXPIRY_WARNING_DAYS ? "font-semibold text-amber-900" : undefined}>
              {fmt(key.expiresAt)}{" "}
              <span className="text-slate-700">
                (in {daysLeft} {daysLeft === 1 ? "day" : "days"})
              </span>
            </dd>
            <dt className="text-slate-700">Last used</dt>
            <dd>{key.lastUsedAt ? fmt(key.lastUsedAt) : "never"}</dd>
          </dl>
        </div>
        <div className="card flex flex-col justify-center">
          <h2 className="text-sm font-semibold text-slate-700">
            Requests made with this key <code className="ml-1 font-mono text-xs font-normal text-slate-600">requests_total</code>
          </h2>
          <p className="mt-2 text-5xl font-bold tabular-nums text-brand-800" data-testid="requests-total">
            {key.requestsTotal.toLocaleString("en-US")}
          </p>
          <p className="mt-2 text-sm text-slate-700">Every API request made with this key, on any endpoint and whatever its outcome.</p>
        </div>
      </section>

      <section aria-labelledby="usage-title" className="card">
        <h2 id="usage-title" className="text-xl font-semibold text-slate-950">
          Usage
        </h2>
        <p className="mt-1 mb-4 text-sm text-slate-700">
          Per UTC day, updated as you use the key. The same numbers are in the API: <code className="font-mono">GET /api/v1/usage</code>.
        </p>
        <UsageChart days={usage.days} endpoints={usage.endpoints} endpointLabels={endpointLabels} csvHref="/dashboard/usage.csv" />
      </section>

      <section aria-labelledby="requests-title" className="card">
        <h2 id="requests-title" className="scroll-mt-4 text-xl font-semibold text-slate-950">
          Recent requests
        </h2>
        <p className="mt-1 mb-4 text-sm text-slate-700">
          Every request made with this key in the last 7 days: what it asked, how it ended, what served it. Only these details are kept, never your
          text or audio. The same list is in the API: <code className="font-mono">GET /api/v1/usage/requests</code>.
        </p>
        <RequestLog log={log} filters={filters} endpoints={logEndpoints} />
      </section>

      <PlaygroundProvider expectedPrefix={key.displayPrefix} providerNames={names} providerChoices={providerChoices()}>
        <section aria-labelledby="limits-title" className="card">
          <h2 id="limits-title" className="text-xl font-semibold text-slate-950">
            Rate limits
          </h2>
          <p className="mt-1 mb-4 text-sm text-slate-700">Per key, sliding window. A 429 tells you how long to wait (Retry-After).</p>
          <RateLimitPanel rules={rules} />
        </section>

        <section aria-labelledby="playground-title" className="card">
          <h2 id="playground-title" className="text-xl font-semibold text-slate-950">
            Playground
          </h2>
          <p className="mt-1 mb-5 text-sm text-slate-700">Real API calls with your key: they count towards requests_total and your rate limits.</p>
          <Playground
            languages={languages}
            sttLanguages={sttLanguages}
            ttsLanguages={ttsLanguages}
            limits={{
              textChars: MAX_TEXT_CHARS,
              batchItems: MAX_BATCH_ITEMS,
              ttsChars: MAX_TTS_CHARS,
              stt: { maxBytes: services().config.SPEECH_MAX_UPLOAD_BYTES, maxSeconds: services().config.SPEECH_MAX_AUDIO_SECONDS },
            }}
          />
        </section>
      </PlaygroundProvider>

      <section aria-labelledby="danger-title" className="card border-red-200">
        <h2 id="danger-title" className="text-xl font-semibold text-slate-950">
          Revoke this key
        </h2>
        <p className="mt-1 mb-4 text-sm text-slate-800">
          If the key has leaked or you no longer need it. Apps using it stop working at once; create a new key first if you are rotating.
        </p>
        <RevokeKey name={key.name} prefix={key.displayPrefix} />
      </section>
    </div>
  );
}
