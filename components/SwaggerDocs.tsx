"use client";

import dynamic from "next/dynamic";
import "swagger-ui-react/swagger-ui.css";

/**
 * Swagger UI on /api/v1/openapi.json. Client-only (swagger-ui touches window at import time), loaded with
 * next/dynamic ssr:false. Authorisation is entered in the "Authorize" dialog and kept in memory only
 * (persistAuthorization off: the key is not written to localStorage).
 */
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
        deepLinking
        displayRequestDuration
        defaultModelsExpandDepth={1}
        persistAuthorization={false}
        tryItOutEnabled={false}
      />
    </div>
  );
}
