import { notFoundRoute } from "@/lib/api/route";

/** Any /api (and, re-exported, /health) path without a route of its own: 404 in the error envelope, whatever the method. */
export const { GET, HEAD, POST, PUT, PATCH, DELETE } = notFoundRoute();
