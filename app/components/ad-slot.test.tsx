import { renderToString } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router";
import { describe, expect, test } from "vitest";
import { parseSlotMarkerName, slotMarkerHtml } from "~/domain/ads/ad-slots";
import { AD_SLOTS, AdSlot } from "./ad-slot";

/** The slot as the server renders it, under a root whose settings carry `adClientId`. */
async function rendered(adClientId: string | null, category?: string): Promise<string> {
  const routes = [{ id: "root", path: "/", loader: () => ({ settings: { adClientId, adConsentRequired: true } }), Component: () => <AdSlot name="article" category={category} className="mt-12" /> }];
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request("http://localhost/"));
  if (context instanceof Response) throw new Error("unexpected response");
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToString(<StaticRouterProvider router={router} context={context} hydrate={false} />);
}

describe("an ad slot (issues 41 and 43)", () => {
  test("the server writes the slot's marker, for the door to fill, in a landmark that app.css hides while it is empty", async () => {
    const html = await rendered(null);
    expect(html).toContain(`aria-label="${AD_SLOTS.article.label}"`);
    expect(html).toContain('data-ad-slot-name="article"');
    expect(html).toContain(`<div data-ad-fill="" class="mx-auto w-full max-w-5xl overflow-hidden">${slotMarkerHtml("article")}</div>`);
    // No network unit and no reserved height in the page itself: an empty slot takes no space.
    expect(html).not.toContain("adsbygoogle");
    expect(html).not.toMatch(/height:\s*\d+px/);
  });

  test("with an ad network the stored page is the same: the network is the browser's business, after consent", async () => {
    expect(await rendered("ca-pub-1234567890")).toBe(await rendered(null));
  });

  test("an article's slot names its category, so campaigns that target it can fill it", async () => {
    const html = await rendered(null, "news");
    expect(html).toContain(slotMarkerHtml("article", "news"));
    expect(parseSlotMarkerName("article-in-news")).toEqual({ slot: "article", category: "news" });
    expect(parseSlotMarkerName("article-in-in-the-news")).toEqual({ slot: "article", category: "in-the-news" });
    expect(parseSlotMarkerName("sidebar")).toBeNull();
    expect(parseSlotMarkerName("article-in-")).toBeNull();
  });
});
