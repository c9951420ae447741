import { renderToString } from "react-dom/server";
import { describe, expect, test } from "vitest";
import { TagPicker } from "./tag-picker";

// Without JavaScript the picker is a plain text field of comma-separated names (the server's `tags`
// field), so a story can be tagged from a browser that runs no script.
describe("the tag picker before its script runs", () => {
  test("is the `tags` text field holding the story's tags, with the server's message beside it", () => {
    const html = renderToString(<TagPicker tags={[{ name: "Ferries" }]} initialNames={["Ferries", "Harbour life"]} error="“???”: needs a letter" />);
    expect(html).toMatch(/<input[^>]*name="tags"[^>]*value="Ferries, Harbour life"/);
    expect(html).not.toContain('type="hidden"');
    expect(html).toContain("Separate tags with commas");
    expect(html).toContain("needs a letter");
    expect(html).toContain('aria-invalid="true"');
  });
});
