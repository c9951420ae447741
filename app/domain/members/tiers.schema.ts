import { z } from "zod";

// Paid tiers (issue 40): the admin form's schema and the price helpers, browser-safe. Prices are typed
// as decimals in the site's currency ("5", "4.99") and kept in its minor unit (cents), as Stripe does.

export const TIER_LIMITS = { name: 60, description: 500, benefit: 120, benefits: 12, trialDays: 365 } as const;

export type Cadence = "month" | "year";
export const CADENCES: readonly Cadence[] = ["month", "year"];

export function isCadence(value: unknown): value is Cadence {
  return value === "month" || value === "year";
}

/** How many decimals the currency's amounts have (USD 2, JPY 0), as Intl knows it. */
export function currencyDigits(currency: string): number {
  return new Intl.NumberFormat("en", { style: "currency", currency: currency.toUpperCase() }).resolvedOptions().maximumFractionDigits ?? 2;
}

/** A decimal amount as typed ("5", "4.99", "4,99") in minor units, or null when it is not one the currency can hold. */
export function toMinorUnits(text: string, currency: string): number | null {
  const match = /^(\d{1,7})(?:[.,](\d+))?$/.exec(text.trim());
  if (!match) return null;
  const digits = currencyDigits(currency);
  const fraction = match[2] ?? "";
  if (fraction.length > digits) return null;
  return Number(match[1]) * 10 ** digits + Number(fraction.padEnd(digits, "0") || "0");
}

/** Minor units as the decimal the form shows again ("5", "4.99"). */
export function fromMinorUnits(amount: number, currency: string): string {
  const digits = currencyDigits(currency);
  if (digits === 0 || amount % 10 ** digits === 0) return String(amount / 10 ** digits);
  return (amount / 10 ** digits).toFixed(digits);
}

/** A price for readers: "$5", "$4.99", "€50" (no ".00" on whole amounts). */
export function formatPrice(amount: number, currency: string, locale = "en-US"): string {
  const digits = currencyDigits(currency);
  const whole = amount % 10 ** digits === 0;
  return new Intl.NumberFormat(locale, { style: "currency", currency: currency.toUpperCase(), minimumFractionDigits: whole ? 0 : digits, maximumFractionDigits: digits }).format(amount / 10 ** digits);
}

const price = (label: string) =>
  z
    .string()
    .trim()
    .min(1, `Enter the ${label} price.`)
    .regex(/^\d{1,7}([.,]\d+)?$/, `Enter the ${label} price as a number, such as 5 or 4.99.`);

/** The tier form, as submitted (prices still decimal text: the server turns them into minor units with the currency's decimals). */
export const tierFormSchema = z.object({
  name: z.string().trim().min(1, "Enter the tier's name.").max(TIER_LIMITS.name, `The name can be at most ${TIER_LIMITS.name} characters.`),
  description: z.string().trim().max(TIER_LIMITS.description, `The description can be at most ${TIER_LIMITS.description} characters.`),
  benefits: z
    .string()
    .transform((text) =>
      text
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter(Boolean),
    )
    .pipe(
      z
        .array(z.string().max(TIER_LIMITS.benefit, `Each benefit can be at most ${TIER_LIMITS.benefit} characters.`))
        .max(TIER_LIMITS.benefits, `List at most ${TIER_LIMITS.benefits} benefits, one per line.`),
    ),
  monthlyPrice: price("monthly"),
  yearlyPrice: price("yearly"),
  trialDays: z
    .string()
    .trim()
    .transform((v) => (v === "" ? "0" : v))
    .pipe(z.string().regex(/^\d{1,3}$/, "Enter the trial as a whole number of days (0 for none)."))
    .transform(Number)
    .pipe(z.number().max(TIER_LIMITS.trialDays, `A trial can last at most ${TIER_LIMITS.trialDays} days.`)),
});

export type TierFormInput = z.output<typeof tierFormSchema>;
export type TierFieldName = keyof z.input<typeof tierFormSchema>;
export const TIER_FIELDS: readonly TierFieldName[] = ["name", "description", "benefits", "monthlyPrice", "yearlyPrice", "trialDays"];

/** A tier's prices in minor units, from the form's decimals: a field error for a price the currency cannot hold, or of nothing. */
export function pricesOf(input: Pick<TierFormInput, "monthlyPrice" | "yearlyPrice">, currency: string): { monthly: number; yearly: number } | { field: "monthlyPrice" | "yearlyPrice"; message: string } {
  const digits = currencyDigits(currency);
  const code = currency.toUpperCase();
  const out = { monthly: 0, yearly: 0 };
  for (const [field, key, label] of [
    ["monthlyPrice", "monthly", "monthly"],
    ["yearlyPrice", "yearly", "yearly"],
  ] as const) {
    const amount = toMinorUnits(input[field], currency);
    if (amount === null) return { field, message: digits === 0 ? `${code} prices have no decimals: enter a whole number.` : `${code} prices have at most ${digits} decimals.` };
    if (amount <= 0) return { field, message: `The ${label} price must be more than 0 (Free is every member without a paid tier).` };
    out[key] = amount;
  }
  return out;
}
