import { plainError } from "./route";

/** The handler for every method a route does not implement: 405 in the error envelope, with an Allow header. */
export function methodNotAllowed(...allowed: string[]) {
  const allow = [...allowed, "OPTIONS"].join(", ");
  return plainError("METHOD_NOT_ALLOWED", `This endpoint does not accept that method. Allowed: ${allow}.`, { Allow: allow });
}
