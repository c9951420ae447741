import { parseArgs } from "node:util";

// `npm run import`'s command line, read (scripts/import.ts runs it): which command, which file, and the
// import's choices, or the usage error to print.

export const IMPORT_USAGE = `Usage:
  npm run import -- wordpress <export.xml> [--media-dir <folder with wp-content/uploads> | --skip-media] [--dry-run] [--report <file>]
  npm run import -- ghost <export.json> [--skip-media] [--dry-run] [--report <file>]
  npm run import -- check-redirects <report.json> [--url <site address>]
  npm run import -- wordpress|ghost <export> --retry-media [--media-dir <folder>] [--report <file>]

  --pin-sticky, --no-pin-sticky  sticky posts become pinned top stories, or not (unsaid: only on a site with no story yet)
  --retry-media                  the images the site's imported stories lack are fetched again and put in place`;

export interface ImportArgs {
  command: "wordpress" | "ghost" | "check-redirects";
  file: string;
  mediaDir: string | null;
  skipMedia: boolean;
  dryRun: boolean;
  /** Unsaid: the site's default (pinned only on a site with no story yet). */
  pinSticky: boolean | undefined;
  retryMedia: boolean;
  report: string | null;
  url: string | null;
}

/** `usage`: print the usage and exit with `code` (--help: 0; no command: 2). */
export type ParsedImportArgs = { usage: true; code: 0 | 2 } | { usage: false; args: ImportArgs } | { error: string };

/** The arguments after `npm run import --`. */
export function parseImportArgs(argv: string[]): ParsedImportArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        "media-dir": { type: "string" },
        "skip-media": { type: "boolean" },
        "dry-run": { type: "boolean" },
        "pin-sticky": { type: "boolean" },
        "no-pin-sticky": { type: "boolean" },
        "retry-media": { type: "boolean" },
        report: { type: "string" },
        url: { type: "string" },
        help: { type: "boolean" },
      },
    });
  } catch (error) {
    return { error: (error as Error).message };
  }
  const { values, positionals } = parsed;
  const [command, file] = positionals;
  if (values.help || !command) return { usage: true, code: values.help ? 0 : 2 };
  if (command !== "wordpress" && command !== "ghost" && command !== "check-redirects") return { error: `unknown command “${command}”` };
  if (!file) return { error: "name the file" };
  if (positionals.length > 2) return { error: `one file at a time (“${positionals[2]}”)` };
  if (values["pin-sticky"] && values["no-pin-sticky"]) return { error: "--pin-sticky and --no-pin-sticky say opposite things: give one" };
  if (values["media-dir"] && values["skip-media"]) return { error: "--media-dir and --skip-media say opposite things: give one" };
  if (values["retry-media"]) {
    const other = (["dry-run", "skip-media", "pin-sticky", "no-pin-sticky"] as const).find((name) => values[name]);
    if (other) return { error: `--retry-media imports no story: --${other} has no place beside it` };
    if (command === "check-redirects") return { error: "--retry-media goes with wordpress or ghost and the site's export" };
  }
  return {
    usage: false,
    args: {
      command,
      file,
      mediaDir: values["media-dir"] ?? null,
      skipMedia: Boolean(values["skip-media"]),
      dryRun: Boolean(values["dry-run"]),
      pinSticky: values["pin-sticky"] ? true : values["no-pin-sticky"] ? false : undefined,
      retryMedia: Boolean(values["retry-media"]),
      report: values.report ?? null,
      url: values.url ?? null,
    },
  };
}
