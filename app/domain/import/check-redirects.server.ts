// `npm run import -- check-redirects <report>` (issue 29): every old address of an import requested on
// the running site, each expected to answer 301 with a Location leading to its new address, and that
// address to answer 200. Plain HTTP from outside, as a search engine would follow them.

/** How many requests are in flight at once. */
const PARALLEL = 8;

export interface RedirectCheck {
  total: number;
  ok: number;
  failures: { from: string; problem: string }[];
}

async function checkOne(base: URL, from: string, to: string): Promise<string | null> {
  const first = await fetch(new URL(from, base), { redirect: "manual", signal: AbortSignal.timeout(15_000) });
  await first.body?.cancel();
  if (first.status !== 301) return `answers ${first.status}, not 301`;
  const location = first.headers.get("location");
  if (!location) return "answers 301 without a Location";
  const target = new URL(location, new URL(from, base));
  const expected = new URL(to, base);
  if (target.pathname !== expected.pathname || (target.origin !== expected.origin && target.origin !== base.origin)) {
    return `leads to ${target.pathname}, not ${expected.pathname}`;
  }
  const second = await fetch(target, { redirect: "manual", signal: AbortSignal.timeout(15_000) });
  await second.body?.cancel();
  if (second.status !== 200) return `leads to ${target.pathname}, which answers ${second.status}`;
  return null;
}

export async function checkRedirects(siteUrl: string, redirects: readonly { from: string; to: string }[], say: (line: string) => void = () => {}): Promise<RedirectCheck> {
  const base = new URL(siteUrl);
  const result: RedirectCheck = { total: redirects.length, ok: 0, failures: [] };
  let next = 0;
  const worker = async () => {
    while (next < redirects.length) {
      const { from, to } = redirects[next++]!;
      let problem: string | null;
      try {
        problem = await checkOne(base, from, to);
      } catch (error) {
        problem = `could not be requested: ${(error as Error).message}`;
      }
      if (problem) {
        result.failures.push({ from, problem });
        say(`${from}: ${problem}`);
      } else result.ok++;
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, redirects.length) }, worker));
  return result;
}
