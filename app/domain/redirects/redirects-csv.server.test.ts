import { describe, expect, test } from "vitest";
import { CSV_HEADER_MISSING, parseRedirectsCsv, redirectsToCsv } from "./redirects-csv.server";

describe("parseRedirectsCsv", () => {
  test("reads the header's columns in any order, status optional (301)", () => {
    const { rows, problems } = parseRedirectsCsv("\uFEFFto,from\r\n/article/a,/old-a/\n/article/b,/old-b\n");
    expect(problems).toEqual([]);
    expect(rows).toEqual([
      { line: 2, fromPath: "/old-a/", toPath: "/article/a", statusCode: 301 },
      { line: 3, fromPath: "/old-b", toPath: "/article/b", statusCode: 301 },
    ]);
  });

  test("reports each bad line with its number and keeps the good ones", () => {
    const { rows, problems } = parseRedirectsCsv('from,to,status\n/a,/article/a,301\n/b,,301\n\n/c,/article/c,307\n"/d, quoted",/article/d,302\n');
    expect(rows.map((r) => [r.line, r.fromPath, r.statusCode])).toEqual([
      [2, "/a", 301],
      [6, "/d, quoted", 302],
    ]);
    expect(problems).toEqual([
      { line: 3, reason: "The new address (to) is empty." },
      { line: 5, reason: "The status must be 301 or 302, not “307”." },
    ]);
  });

  test("a file without the header, or no CSV at all, is one problem", () => {
    expect(parseRedirectsCsv("/a,/b,301\n").problems).toEqual([{ line: 1, reason: CSV_HEADER_MISSING }]);
    const broken = parseRedirectsCsv('from,to\n/a,/b\n"/c,/d\n');
    expect(broken.rows).toEqual([]);
    expect(broken.problems[0]!.reason).toMatch(/^This is not valid CSV/);
  });
});

describe("redirectsToCsv", () => {
  test("quotes what needs it, and reads back to the same rows", () => {
    const rows = [
      { fromPath: "/?p=1", toPath: "/article/a", statusCode: 301 },
      { fromPath: '/say-"hi",you', toPath: "https://example.org/x?a=1,2", statusCode: 302 },
    ];
    const csv = redirectsToCsv(rows);
    expect(csv).toBe('from,to,status\r\n/?p=1,/article/a,301\r\n"/say-""hi"",you","https://example.org/x?a=1,2",302\r\n');
    expect(parseRedirectsCsv(csv).rows.map(({ fromPath, toPath, statusCode }) => ({ fromPath, toPath, statusCode }))).toEqual(rows);
  });
});
