import { test as base, expect, type BrowserContext, type Locator, type Page } from "@playwright/test";

export * from "@playwright/test";

/**
 * Every journey runs under the site's enforced Content-Security-Policy, and any violation Chromium
 * reports (a blocked script, style, frame, image or connection) fails the test that caused it: in the
 * test's own context and in every context or page it opens itself.
 */
export const test = base.extend<{ cspViolations: string[] }>({
  cspViolations: [
    async ({ context, browser }, use) => {
      const violations: string[] = [];
      const watch = (watched: BrowserContext) =>
        watched.on("console", (message) => {
          if (/Content.Security.Policy/i.test(message.text())) violations.push(`${message.page()?.url() ?? ""}: ${message.text()}`);
        });
      watch(context);
      const newContext = browser.newContext;
      browser.newContext = async (...args) => {
        const opened = await newContext.apply(browser, args);
        watch(opened);
        return opened;
      };
      try {
        await use(violations);
      } finally {
        browser.newContext = newContext;
      }
      expect(violations, "Content-Security-Policy violations").toEqual([]);
    },
    { auto: true },
  ],
});

/** Resolves once the page of `locator` runs its script (handlers attached): the root marks `<html data-hydrated>`. */
export async function waitForHydration(locator: Locator) {
  await expect(locator.page().locator("html[data-hydrated]")).toHaveCount(1);
}

/** Nothing on the page scrolls sideways: the document is no wider than the window. */
export async function expectNoSidewaysScroll(page: Page, what: string) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
  expect(scrollWidth, `${what}: scrollWidth ${scrollWidth} > innerWidth ${innerWidth}`).toBeLessThanOrEqual(innerWidth);
}
