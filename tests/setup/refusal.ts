import { expect } from "vitest";
import { AppError } from "~/lib/app-error";

/** The AppError a service call refuses with (the test fails when it succeeds or throws anything else). */
export async function refusal(call: Promise<unknown> | (() => unknown)): Promise<AppError> {
  const error = await Promise.resolve()
    .then(() => (typeof call === "function" ? call() : call))
    .then(
      () => null,
      (e: unknown) => e,
    );
  expect(error, "a refusal (AppError)").toBeInstanceOf(AppError);
  return error as AppError;
}
