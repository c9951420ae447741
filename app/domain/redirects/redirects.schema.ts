import { z } from "zod";
import { MAX_REDIRECT_PATH_LENGTH, normalizeRedirectPath, normalizeRedirectTarget } from "./redirect-paths";

// Redirects (issue 29, decision 0040): the rules the back office's form and the server both read. Browser-safe.

export const REDIRECT_STATUS_CODES = [301, 302] as const;
export type RedirectStatusCode = (typeof REDIRECT_STATUS_CODES)[number];

/** The most redirects a reader may be sent through from one old address (a longer chain is refused when saved). */
export const MAX_REDIRECT_HOPS = 5;
/** Rows a page of /admin/redirects shows. */
export const REDIRECTS_PAGE_SIZE = 50;

export const FROM_REQUIRED = "Old path is required";
export const TO_REQUIRED = "New path is required";
export const FROM_INVALID = "Enter the old address as a path starting with “/” (like /2019/05/some-story/), or a full http(s) URL of the old site.";
export const TO_INVALID = "Enter the new address as a path starting with “/” (like /article/some-story), or a full http:// or https:// URL.";
export const STATUS_INVALID = "Choose 301 (moved permanently) or 302 (found, temporary).";
export const LEADS_TO_ITSELF = "The new address is the old one: a redirect cannot lead to itself.";
export const HOME_NOT_REDIRECTED = "The home page cannot be redirected.";
export const FROM_TAKEN = "Another redirect already has this old address: edit that one instead.";
export const reservedPath = (path: string) =>
  `${path} is one of the site's own addresses (the back office, its API, sign-in, media or files) and cannot be redirected.`;
export const makesLoop = (from: string, through: string) => `This would make a loop: ${through} leads back to ${from}.`;
export const TOO_MANY_HOPS = `This would send readers through more than ${MAX_REDIRECT_HOPS} redirects: point it at the final address instead.`;

const pathField = (required: string, invalid: string, normalize: (value: string) => string | null) =>
  z
    .string()
    .trim()
    .superRefine((value, ctx) => {
      if (value === "") ctx.addIssue({ code: "custom", message: required });
      else if (value.length > MAX_REDIRECT_PATH_LENGTH) ctx.addIssue({ code: "custom", message: `An address must be at most ${MAX_REDIRECT_PATH_LENGTH} characters.` });
      else if (normalize(value) === null) ctx.addIssue({ code: "custom", message: invalid });
    })
    .transform((value) => normalize(value)!);

/** The add and edit form: the old address, the new one, and the status. */
export const redirectFormSchema = z.object({
  fromPath: pathField(FROM_REQUIRED, FROM_INVALID, normalizeRedirectPath),
  toPath: pathField(TO_REQUIRED, TO_INVALID, normalizeRedirectTarget),
  statusCode: z
    .string()
    .trim()
    .refine((value) => value === "" || value === "301" || value === "302", STATUS_INVALID)
    .transform((value) => (value === "302" ? 302 : 301) as RedirectStatusCode),
});
export type RedirectFieldName = keyof z.input<typeof redirectFormSchema>;
export type RedirectInput = z.output<typeof redirectFormSchema>;

/** A redirect as /admin/redirects lists it. */
export interface RedirectRow {
  id: number;
  fromPath: string;
  toPath: string;
  statusCode: RedirectStatusCode;
  hits: number;
  lastHitAt: Date | null;
  source: string;
}
