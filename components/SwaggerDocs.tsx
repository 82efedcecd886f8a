"use client";

import dynamic from "next/dynamic";
import { loadPlaygroundKey } from "@/lib/portal/key-storage";
import "swagger-ui-react/swagger-ui.css";

/**
 * Swagger UI on /api/v1/openapi.json. Client-only (swagger-ui touches window at import time), loaded with
 * next/dynamic ssr:false. Authorisation is entered in the "Authorize" dialog and kept in memory only
 * (persistAuthorization off: the key is not written to localStorage). When this tab already holds a key (minted on the
 * home page, or the playground's), it is filled in for "Try it out" at once.
 *
 * Accessibility (axe-core runs on this page in e2e/browser/pages.spec.ts): deep links are off, because Swagger UI puts
 * each operation's link inside its expand button (a link nested in a button, and a target too small on phones); the
 * server picker is not rendered, since there is one server and Swagger UI gives its select no label. Colours below
 * 4.5:1 are overridden in globals.css.
 */
const hideServerPicker = () => ({ wrapComponents: { ServersContainer: () => () => null } });

type SwaggerSystem = { preauthorizeApiKey: (scheme: string, value: string) => void };
function prefillKey(system: SwaggerSystem) {
  const key = loadPlaygroundKey();
  if (key) system.preauthorizeApiKey("bearerAuth", key);
}

const SwaggerUI = dynamic(() => import("swagger-ui-react"), {
  ssr: false,
  loading: () => <p className="p-6 text-slate-700">Loading the API reference…</p>,
});

export function SwaggerDocs() {
  return (
    <div className="swagger-host">
      <SwaggerUI
        url="/api/v1/openapi.json"
        docExpansion="list"
        deepLinking={false}
        plugins={[hideServerPicker]}
        onComplete={prefillKey as never}
        displayRequestDuration
        defaultModelsExpandDepth={1}
        persistAuthorization={false}
        tryItOutEnabled={false}
      />
    </div>
  );
}
