import { renderToString } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router";
import { describe, expect, test } from "vitest";
import { AD_SLOTS, AdSlot } from "./ad-slot";

/** The slot as the server renders it, under a root whose settings carry `adClientId`. */
async function rendered(adClientId: string | null): Promise<string> {
  const routes = [{ id: "root", path: "/", loader: () => ({ settings: { adClientId } }), Component: () => <AdSlot name="home-middle" className="mt-12" /> }];
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request("http://localhost/"));
  if (context instanceof Response) throw new Error("unexpected response");
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToString(<StaticRouterProvider router={router} context={context} hydrate={false} />);
}

describe("an ad slot (issue 41: an empty slot takes no space)", () => {
  test("without an ad network it renders nothing: no element, no reserved height", async () => {
    expect(await rendered(null)).toBe("");
  });

  test("with an ad network it reserves the slot's height under its label and names the slot's fixed id", async () => {
    const html = await rendered("ca-pub-123");
    expect(html).toContain(`aria-label="${AD_SLOTS["home-middle"].label}"`);
    expect(html).toContain(`height:${AD_SLOTS["home-middle"].height}px`);
    expect(html).toContain(`data-ad-slot="${AD_SLOTS["home-middle"].id}"`);
    expect(html).toContain('data-ad-client="ca-pub-123"');
  });
});
