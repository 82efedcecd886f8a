import { dialectAt } from "@/lib/api/manifest";
import { notFoundRoute } from "@/lib/api/route";

/** Any /compat path without a route of its own: 404 in the shape of the protocol mounted there, whatever the method. */
export const { GET, HEAD, POST, PUT, PATCH, DELETE } = notFoundRoute(dialectAt);
