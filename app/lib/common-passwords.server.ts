import { dictionary } from "@zxcvbn-ts/language-common";

/**
 * Passwords people pick most (issue 12): zxcvbn-ts's list of 49,000 common passwords, shipped in its
 * npm package, lower-cased and read once. Refused for every new password: sign-up, password change,
 * reset, the ADMIN_PASSWORD account and the admin CLI (all pass through Better Auth's hook in auth.server.ts).
 */
let common: Set<string> | null = null;

export const COMMON_PASSWORD =
  "This password is one of the most common passwords, which attackers try first. Choose a longer, less predictable one (a few unrelated words work well).";

export function isCommonPassword(password: string): boolean {
  common ??= new Set((dictionary["passwords-common"] as string[]).map((word) => word.toLowerCase()));
  return common.has(password.toLowerCase()) || common.has(password.trim().toLowerCase());
}
