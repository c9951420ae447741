import { expect, type Browser, type Page } from "./fixtures";

// Anonymous readers for journeys about the page cache: a fresh browser context has no session
// cookie, so the page cache answers it.

/** An anonymous reader's context, closed after `use`. */
export async function asReader<T>(browser: Browser, use: (page: Page) => Promise<T>): Promise<T> {
  const context = await browser.newContext();
  try {
    return await use(await context.newPage());
  } finally {
    await context.close();
  }
}

/**
 * Reads `path` anonymously until the page cache answers it (X-Cache: HIT), so a change that follows
 * must clear it; answers that answer's headers. (Another journey's change to a story it shows may
 * drop it meanwhile, hence the retry.)
 */
export async function primeCache(browser: Browser, path: string): Promise<Record<string, string>> {
  return asReader(browser, async (reader) => {
    let headers: Record<string, string> = {};
    await expect
      .poll(async () => {
        const answer = await reader.request.get(path);
        expect(answer.status()).toBe(200);
        headers = answer.headers();
        return headers["x-cache"];
      })
      .toBe("HIT");
    return headers;
  });
}
