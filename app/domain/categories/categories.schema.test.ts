import { describe, expect, test } from "vitest";
import { categoryInputSchema } from "./categories.schema";
import { slugify } from "~/lib/slugs";

describe("categoryInputSchema", () => {
  test("a name with a slugified slug is accepted", () => {
    const result = categoryInputSchema.safeParse({ name: "World News", slug: slugify("World News") });
    expect(result.success).toBe(true);
  });

  test("a slug with capitals or doubled hyphens is refused with a message", () => {
    const result = categoryInputSchema.safeParse({ name: "News", slug: "News--today" });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe("Use lowercase letters, digits and single hyphens only");
  });
});
