import Link from "next/link";
import { CodeBlock } from "@/components/CodeBlock";
import { KeyIssuer } from "@/components/KeyIssuer";
import { requestOrigin } from "@/components/origin";
import { ProviderBadge } from "@/components/ProviderBadge";
import { providerSummaries } from "@/components/providerNames";
import { authConfigured } from "@/lib/api/auth/secret";
import { listLanguages } from "@/lib/languages/listing";
import { services } from "@/lib/server";
import { catalogueSubjects } from "@/lib/server/availability";

export default async function Home({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const origin = await requestOrigin(services().config.NEXTAUTH_URL);
  // What would serve each pair now: routes known to be unavailable are left out (lib/availability).
  const languages = listLanguages({}, undefined, undefined, await services().availability.view(catalogueSubjects()));
  const pairs = languages.languages.reduce((n, l) => n + l.translation.targets.length, 0);
  const quickStart = `# 1. Get a key (or use the form above)
curl -X POST ${origin}/api/v1/auth/keys \\
  -H "Content-Type: application/json" \\
  -d '{"name": "my app"}'

# 2. Translate
export LUGHA_KEY=svc_...   # the api_key from step 1
curl ${origin}/api/v1/translate \\
  -H "Authorization: Bearer $LUGHA_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"text": "Good morning, how are you?", "source_lang": "en", "target_lang": "lug"}'

# 3. See what is supported
curl ${origin}/api/v1/languages -H "Authorization: Bearer $LUGHA_KEY"`;

  return (
    <div className="mx-auto max-w-6xl space-y-14 px-4 py-10 sm:px-6">
      {params.revoked !== undefined && (
        <div role="status" className="rounded-md border border-slate-300 bg-white p-4 text-sm text-slate-900">
          <strong>Your key has been revoked</strong> and you are signed out. Requests made with it are now refused with 401{" "}
          <code className="font-mono">INVALID_API_KEY</code>. Create a new key below if you need one.
        </div>
      )}

      <section aria-labelledby="hero-title" className="grid gap-8 lg:grid-cols-[3fr_2fr] lg:items-center">
        <div>
          <h1 id="hero-title" className="text-3xl font-bold tracking-tight text-slate-950 sm:text-5xl">
            Translation and speech for African languages
          </h1>
          <p className="mt-4 max-w-2xl text-lg text-slate-800">
            One REST API for Luganda, Acholi, Runyankole, Twi, Ewe, Yoruba, Swahili and {languages.total - 7} more languages. Lugha sends each request
            to the best provider for the language pair, falls back when one fails, and tells you who served it and how good the result is likely to
            be.
          </p>
          <div className="mt-6 flex flex-wrap gap-3">
            <a href="#get-key" className="btn-primary">
              Get an API key
            </a>
            <Link href="/docs" className="btn-secondary">
              Read the API reference
            </Link>
          </div>
        </div>
        <ul className="card space-y-3 text-sm text-slate-800">
          <li>
            <strong className="text-slate-950">No account.</strong> Create a key below; it works at once.
          </li>
          <li>
            <strong className="text-slate-950">Routing with fallback.</strong>{" "}
            {providerSummaries().map((p, i, all) => (
              <span key={p.id}>
                <ProviderBadge provider={p.id} name={p.name} /> {p.blurb}
                {i < all.length - 1 ? "; " : "."}{" "}
              </span>
            ))}
          </li>
          <li>
            <strong className="text-slate-950">Honest metadata.</strong> Every translation reports its provider, model, quality band and latency.
          </li>
          <li>
            <strong className="text-slate-950">Your usage, your limits.</strong> Sign in with your key to see requests per day and try the API in a
            playground.
          </li>
        </ul>
      </section>

      <section id="get-key" aria-labelledby="get-key-title" className="card scroll-mt-6">
        <h2 id="get-key-title" className="text-2xl font-semibold text-slate-950">
          Get an API key
        </h2>
        <p className="mt-1 mb-5 text-slate-800">
          Give the key a name you will recognise. It is shown once; Lugha stores only a hash of it. Keys expire after a year unless you choose a
          shorter lifetime.
        </p>
        <KeyIssuer origin={origin} portalEnabled={authConfigured()} />
      </section>

      <section aria-labelledby="quick-start-title">
        <h2 id="quick-start-title" className="text-2xl font-semibold text-slate-950">
          Quick start
        </h2>
        <p className="mt-1 text-slate-800">
          Send your key as <code className="font-mono">Authorization: Bearer svc_…</code>. Every endpoint, field and error is in the{" "}
          <Link href="/docs" className="text-brand-800 underline">
            API reference
          </Link>
          , where you can also try them.
        </p>
        <CodeBlock code={quickStart} label="Quick start (shell)" className="mt-4" />
        <h3 className="mt-8 text-lg font-semibold text-slate-950">Quality bands</h3>
        <p className="mt-1 text-slate-800">
          <code className="font-mono">quality_score</code> says what kind of engine served the translation:
        </p>
        <dl className="mt-3 grid gap-2 text-sm sm:grid-cols-5">
          {[
            ["0.90–1.00", "Excellent", "specialised provider for the pair"],
            ["0.80–0.89", "Good", "dedicated translation model"],
            ["0.70–0.79", "Decent", "general purpose model"],
            ["0.60–0.69", "Acceptable", "multilingual fallback"],
            ["below 0.60", "Poor", "use with caution"],
          ].map(([range, band, meaning]) => (
            <div key={band} className="rounded-md border border-slate-200 bg-white p-3">
              <dt className="font-semibold text-slate-950">
                {band} <span className="font-mono font-normal text-slate-700">{range}</span>
              </dt>
              <dd className="text-slate-800">{meaning}</dd>
            </div>
          ))}
        </dl>
      </section>

      <section id="languages" aria-labelledby="languages-title" className="scroll-mt-6">
        <h2 id="languages-title" className="text-2xl font-semibold text-slate-950">
          Languages
        </h2>
        <p className="mt-1 text-slate-800">
          <strong>{languages.total}</strong> languages, <strong>{pairs.toLocaleString("en-US")}</strong> translation directions; speech-to-text in{" "}
          <strong>{languages.languages.filter((l) => l.stt.supported).length}</strong> and text-to-speech in{" "}
          <strong>{languages.languages.filter((l) => l.tts.supported).length}</strong>.
        </p>
        <p className="mt-3">
          <Link href="/languages" className="btn-secondary">
            Search and filter every language
          </Link>
        </p>
      </section>
    </div>
  );
}
