/** Helpers for tests of code that throws ApiError. Not imported by runtime code. */
import { ApiError } from "./errors";

/** The ApiError a promise rejects with; fails when it resolves or rejects with anything else. */
export async function apiError(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error("expected an ApiError");
}
