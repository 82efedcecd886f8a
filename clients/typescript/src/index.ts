export type { components, operations, paths } from "../generated/schema.js";
export * from "./client.js";
export { type ErrorCode, type FieldError, LughaConnectionError, LughaError, type LughaErrorInit } from "./errors.js";
export { retryAfterSeconds, type TransportOptions } from "./retry.js";
