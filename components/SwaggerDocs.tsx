"use client";

import dynamic from "next/dynamic";
import { useEffect, useRef } from "react";
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

/**
 * The Markdown tables of the descriptions (the error codes, …) scroll sideways inside their own box on a phone
 * (globals.css). A scrolling box must be reachable by keyboard, so each table is made focusable, as Swagger UI renders
 * them, whenever that is.
 */
function useFocusableTables() {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const root = host.current;
    if (!root) return;
    const mark = () => {
      for (const table of root.querySelectorAll<HTMLTableElement>(".markdown table:not([tabindex]), .renderedMarkdown table:not([tabindex])")) {
        table.tabIndex = 0;
      }
    };
    mark();
    const observer = new MutationObserver(mark);
    observer.observe(root, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, []);
  return host;
}

export function SwaggerDocs() {
  const host = useFocusableTables();
  return (
    <div className="swagger-host" ref={host}>
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
