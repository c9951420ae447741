import path from "node:path";
import ts from "typescript";
import { describe, expect, test } from "vitest";
import { ImportBusyError } from "../../app/domain/import/import-engine.server";
import { MediaFetchError } from "../../app/domain/import/import-media.server";
import { ImportFileError } from "../../app/domain/import/import-records";
import { SnsRefusal } from "../../app/domain/newsletters/newsletter-sns.server";
import { AppError, isAppError } from "../../app/lib/app-error";
import { PurgeRefused } from "../../server/cdn/adapters";
import { parsedSources } from "../setup/source-files";

const ROOT = path.resolve(import.meta.dirname, "../..");
/** Where the application's code lives (decision 0008 counts these three). */
const SOURCE_DIRS = ["app", "server", "scripts"];
/** The constructors a class may not extend: the error family is AppError (decision 0008). */
const BUILT_IN_ERRORS = new Set(["Error", "TypeError", "RangeError", "SyntaxError", "ReferenceError", "EvalError", "URIError", "AggregateError"]);
/**
 * Classes allowed to extend a built-in error, each with the decision record that says why. AppError
 * is the family itself; nothing else is allowed today.
 */
const ALLOWED: Record<string, string> = { "app/lib/app-error.ts AppError": "docs/decisions/0008" };

/** "file ClassName" for every class (declared or an expression) whose `extends` names a built-in error. */
function classesExtendingBuiltInErrors(): string[] {
  const found: string[] = [];
  for (const source of SOURCE_DIRS.flatMap((dir) => parsedSources(path.join(ROOT, dir)))) {
    const visit = (node: ts.Node) => {
      if (ts.isClassLike(node)) {
        const base = node.heritageClauses?.find((clause) => clause.token === ts.SyntaxKind.ExtendsKeyword)?.types[0]?.expression;
        // `Error`, `globalThis.Error`, `(Error)`: the last name is what counts.
        const name = base && (ts.isPropertyAccessExpression(base) ? base.name.text : ts.isIdentifier(base) ? base.text : base.getText(source).replace(/[()\s]/g, ""));
        if (name && BUILT_IN_ERRORS.has(name)) found.push(`${path.relative(ROOT, source.fileName)} ${node.name?.text ?? "(anonymous class)"}`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

describe("one error family", () => {
  test("no class in app/, server/ or scripts/ extends a built-in Error but AppError (or one a decision record allows)", () => {
    const found = classesExtendingBuiltInErrors();
    expect(found).toContain("app/lib/app-error.ts AppError");
    expect(found.filter((entry) => !(entry in ALLOWED))).toEqual([]);
  });

  test("the domain's own refusals are AppErrors with a code and the status they answer with", () => {
    const cases: [AppError, string, number][] = [
      [new SnsRefusal(403, "not the configured topic"), "forbidden", 403],
      [new SnsRefusal(503, "the signing certificate could not be fetched"), "upstream_failed", 503],
      [new ImportBusyError("Another import is running."), "busy", 409],
      [new ImportFileError("This file is empty."), "invalid_input", 400],
      [new MediaFetchError("the old site answered 404"), "upstream_failed", 502],
      [new PurgeRefused("fastly", 503, "HTTP 503"), "upstream_failed", 502],
    ];
    for (const [error, code, status] of cases) {
      expect(isAppError(error), error.name).toBe(true);
      expect({ name: error.name, code: error.code, status: error.status }).toEqual({ name: error.name, code, status });
    }
    expect(new ImportFileError("This file is empty.").field).toBe("file");
    expect(new PurgeRefused("fastly", 503, "HTTP 503").cdnStatus).toBe(503);
  });
});
