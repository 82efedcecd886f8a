import type { Metadata } from "next";
import { CoverageTable } from "@/components/CoverageTable";
import { coverageRows } from "@/components/coverage";
import { listLanguages } from "@/lib/languages/listing";
import { services } from "@/lib/server";
import { catalogueSubjects } from "@/lib/server/availability";

export const metadata: Metadata = { title: "Languages" };

/** Every language Lugha serves, searchable and filterable; the same listing GET /api/v1/languages answers. */
export default async function LanguagesPage() {
  // What would serve each pair now: routes known to be unavailable are left out (lib/availability).
  const { rows, languageNames } = coverageRows(listLanguages({}, undefined, undefined, await services().availability.view(catalogueSubjects())));
  return (
    <div className="mx-auto max-w-6xl space-y-6 px-4 py-10 sm:px-6">
      <div>
        <h1 className="text-3xl font-bold text-slate-950">Languages</h1>
        <p className="mt-2 text-slate-800">
          Drawn from the same registry <code className="font-mono">GET /api/v1/languages</code> serves. The provider shown is the one automatic
          routing tries first; others may also serve a pair (force one with <code className="font-mono">provider</code>).
        </p>
      </div>
      <CoverageTable rows={rows} languageNames={languageNames} />
    </div>
  );
}
