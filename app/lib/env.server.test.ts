import { describe, expect, test } from "vitest";
import { AppError } from "./app-error";
import { loadEnv } from "./env.server";

describe("loadEnv", () => {
  test("with nothing set it falls back to the documented defaults", () => {
    const env = loadEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.DATA_DIR).toBe("./data");
    expect(env.publicUrl).toBe("http://localhost:3000");
  });

  test("a bad PORT gives an error message naming PORT", () => {
    expect(() => loadEnv({ PORT: "eighty" })).toThrow(AppError);
    expect(() => loadEnv({ PORT: "eighty" })).toThrow(/PORT/);
    expect(() => loadEnv({ PORT: "70000" })).toThrow(/PORT/);
  });

  test("a refused credential is named, never quoted (the line reaches the log); another value is", () => {
    expect(() => loadEnv({ METRICS_TOKEN: "short-secret" })).toThrow(/^Invalid environment variable METRICS_TOKEN: /);
    expect(() => loadEnv({ METRICS_TOKEN: "short-secret" })).not.toThrow(/short-secret/);
    expect(() => loadEnv({ PORT: "eighty" })).toThrow(/PORT="eighty"/);
    expect(() => loadEnv({ DATABASE_URL: "mysql://frontpage:hunter2-pass@db.example/site" })).toThrow(/DATABASE_URL="mysql:\/\/…@db\.example\/site"/);
  });

  test("CURRENCY: USD by default, kept lower-case as Stripe writes it; a code no one uses is refused by name", () => {
    expect(loadEnv({}).CURRENCY).toBe("usd");
    expect(loadEnv({ CURRENCY: "EUR" }).CURRENCY).toBe("eur");
    expect(() => loadEnv({ CURRENCY: "dollars" })).toThrow(/CURRENCY.*ISO 4217/);
    expect(() => loadEnv({ CURRENCY: "XYZ" })).toThrow(/CURRENCY/);
  });

  test("a DATABASE_URL that is not a postgres URL is refused by name", () => {
    expect(() => loadEnv({ DATABASE_URL: "mysql://localhost/db" })).toThrow(/DATABASE_URL/);
  });

  test("a common ADMIN_PASSWORD is refused in one line, before anything starts", () => {
    expect(() => loadEnv({ ADMIN_EMAIL: "admin@example.com", ADMIN_PASSWORD: "password1" })).toThrow(/ADMIN_PASSWORD.*most common passwords/);
    expect(loadEnv({ ADMIN_EMAIL: "admin@example.com", ADMIN_PASSWORD: "velvet-harbour-lantern-1" }).ADMIN_PASSWORD).toBe("velvet-harbour-lantern-1");
  });

  test("ADMIN_EMAIL without ADMIN_PASSWORD is refused", () => {
    expect(() => loadEnv({ ADMIN_EMAIL: "admin@example.com" })).toThrow(/ADMIN_PASSWORD/);
  });

  test("PUBLIC_URL loses its trailing slash", () => {
    expect(loadEnv({ PUBLIC_URL: "https://news.example.com/" }).publicUrl).toBe("https://news.example.com");
  });

  test("Stripe's keys go together, are checked by their shape and never quoted; CURRENCY is an ISO code kept lower-case", () => {
    const keys = { STRIPE_SECRET_KEY: "sk_test_51Abc", STRIPE_WEBHOOK_SECRET: "whsec_abc123" };
    expect(loadEnv({}).STRIPE_SECRET_KEY).toBeUndefined();
    expect(loadEnv({}).CURRENCY).toBe("usd");
    expect(loadEnv({ ...keys, CURRENCY: "EUR" })).toMatchObject({ ...keys, CURRENCY: "eur" });
    expect(loadEnv({ STRIPE_SECRET_KEY: "rk_live_9x", STRIPE_WEBHOOK_SECRET: "whsec_y" }).STRIPE_SECRET_KEY).toBe("rk_live_9x");
    expect(() => loadEnv({ STRIPE_SECRET_KEY: "pk_test_publishable", STRIPE_WEBHOOK_SECRET: "whsec_abc" })).toThrow(/^Invalid environment variable STRIPE_SECRET_KEY: must be a Stripe secret key/);
    expect(() => loadEnv({ STRIPE_SECRET_KEY: "pk_test_publishable", STRIPE_WEBHOOK_SECRET: "whsec_abc" })).not.toThrow(/pk_test/);
    expect(() => loadEnv({ STRIPE_SECRET_KEY: "sk_test_1" })).toThrow(/STRIPE_WEBHOOK_SECRET: required when STRIPE_SECRET_KEY is set/);
    expect(() => loadEnv({ STRIPE_WEBHOOK_SECRET: "whsec_1" })).toThrow(/STRIPE_SECRET_KEY: required when STRIPE_WEBHOOK_SECRET is set/);
    expect(() => loadEnv({ ...keys, STRIPE_WEBHOOK_SECRET: "secret" })).toThrow(/STRIPE_WEBHOOK_SECRET: must be a webhook signing secret/);
    expect(() => loadEnv({ CURRENCY: "dollars" })).toThrow(/CURRENCY="dollars": must be a three-letter ISO 4217/);
    expect(() => loadEnv({ CURRENCY: "XQZ" })).toThrow(/CURRENCY="XQZ": is not a currency code/);
    expect(() => loadEnv({ STRIPE_API_BASE: "127.0.0.1:12111" })).toThrow(/STRIPE_API_BASE.*must be a URL/);
    expect(loadEnv({ STRIPE_API_BASE: "http://127.0.0.1:12111" }).STRIPE_API_BASE).toBe("http://127.0.0.1:12111");
  });
});
