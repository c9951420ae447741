import { describe, expect, test } from "vitest";
import { z } from "zod";
import { AppError, isAppError } from "./app-error";
import { expectedOr, formValues, MISSING_FIELDS, NUL_REFUSED, parseForm, refuse, refusalNotice } from "./forms";

const schema = z.object({
  name: z.string().trim().min(1, "Name is required").max(5, "Name must be at most 5 characters"),
  email: z.string().trim().pipe(z.email("Enter a valid e-mail address")),
  note: z.string(),
});
const FIELDS = ["name", "email", "note"] as const;

function form(entries: Record<string, string | Blob>) {
  const data = new FormData();
  for (const [name, value] of Object.entries(entries)) data.set(name, value);
  return data;
}

function thrown(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    if (isAppError(error)) return error;
    throw error;
  }
  throw new Error("expected an AppError");
}

describe("formValues", () => {
  test("a NUL in any field refuses the whole form with a 400 naming the field; expectedOr passes the refusal on", () => {
    for (const field of FIELDS) {
      let caught: unknown;
      try {
        formValues(form({ name: "Ann", email: "a@b.c", note: "ok", [field]: "a\0b" }), FIELDS);
      } catch (error) {
        caught = error;
      }
      const answer = caught as { data: { code: string; error: string; fieldErrors: Record<string, string> }; init: { status: number } };
      expect(answer.init.status).toBe(400);
      expect(answer.data).toMatchObject({ code: "invalid_input", error: NUL_REFUSED, fieldErrors: { [field]: NUL_REFUSED } });
      // A route that turns unexpected errors into a 500 leaves this answer as it is.
      expect(() => expectedOr(caught, "server error", () => void 0)).toThrow(expect.objectContaining({ init: { status: 400 } }));
    }
  });

  test("other control characters are removed (tab and line breaks stay); passwords are read exactly", () => {
    const values = formValues(form({ name: "A\u0007n\u001bn", note: "one\ttwo\r\nthree\u000b\u007f", password: "p\u0001w" }), ["name", "note", "password"]);
    expect(values).toEqual({ name: "Ann", note: "one\ttwo\r\nthree", password: "p\u0001w" });
  });

  test("reads every named field as a string; an absent field or a file reads as blank", () => {
    const values = formValues(form({ name: "Ann", note: new Blob(["x"]), extra: "ignored" }), FIELDS);
    expect(values).toEqual({ name: "Ann", email: "", note: "" });
  });
});

describe("parseForm", () => {
  test("gives the schema's output when the values are valid", () => {
    expect(parseForm(schema, { name: " Ann ", email: "ann@example.org", note: "" }, { required: ["name"] })).toEqual({
      name: "Ann",
      email: "ann@example.org",
      note: "",
    });
  });

  test("a blank required field is missing_fields with the form's wording, every field's problem beside it", () => {
    const error = thrown(() =>
      parseForm(schema, { name: "  ", email: "nope", note: "" }, { required: ["name", "email"], missingMessage: MISSING_FIELDS.commentDescription }),
    );
    expect(error).toMatchObject({ code: "missing_fields", status: 400, message: "Please fill in all required fields.", field: "name" });
    expect(error.fieldErrors).toEqual({ name: "Name is required", email: "Enter a valid e-mail address" });
  });

  test("without a blank required field, the first problem is invalid_input", () => {
    const error = thrown(() => parseForm(schema, { name: "Annabel", email: "ann@example.org", note: "" }, { required: ["name"] }));
    expect(error).toMatchObject({ code: "invalid_input", status: 400, message: "Name must be at most 5 characters", field: "name" });
  });
});

describe("refuse", () => {
  test("answers an AppError as a Refusal with its status, the values and the headers", () => {
    const answer = refuse(new AppError("slug_taken", "Taken.", { field: "slug" }), { slug: "x" }, { headers: { "Cache-Control": "no-store" } });
    expect(answer.init?.status).toBe(400);
    expect(new Headers(answer.init?.headers).get("Cache-Control")).toBe("no-store");
    expect(answer.data).toEqual({ ok: false, code: "slug_taken", error: "Taken.", fieldErrors: { slug: "Taken." }, values: { slug: "x" } });
  });

  test("throws anything that is not an AppError on, unchanged", () => {
    const unexpected = new TypeError("boom");
    expect(() => refuse(unexpected)).toThrow(unexpected);
  });
});

describe("refusalNotice", () => {
  test("missing fields keep the spec's title and the form's wording; other refusals are Error with the message", () => {
    expect(refusalNotice({ code: "missing_fields", error: MISSING_FIELDS.description })).toEqual(["Missing fields", "Please fill in all required fields"]);
    expect(refusalNotice({ code: "not_found", error: "Gone." })).toEqual(["Error", "Gone."]);
    expect(refusalNotice({ code: "invalid_input", error: "Slug is bad" }, { marksFields: true })).toEqual(["Error", "Please correct the highlighted fields."]);
    expect(refusalNotice({ code: "invalid_input", error: "Slug is bad" })).toEqual(["Error", "Slug is bad"]);
  });
});

describe("AppError", () => {
  test("takes its status from its code unless given one", () => {
    expect(new AppError("not_found", "x").status).toBe(404);
    expect(new AppError("rate_limited", "x").status).toBe(429);
    expect(new AppError("slug_taken", "x", { status: 409 }).status).toBe(409);
    expect(isAppError(new AppError("in_use", "x"), "in_use", "not_found")).toBe(true);
    expect(isAppError(new AppError("in_use", "x"), "not_found")).toBe(false);
    expect(isAppError(new Error("x"))).toBe(false);
  });
});
