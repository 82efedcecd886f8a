import { plainError } from "@/lib/http/route";

/** Any /api path without a route of its own: 404 in the error envelope, whatever the method. */
const notFound = plainError("NOT_FOUND", "No such endpoint. See /docs for the API reference.");

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
