import { existsSync } from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";
import { beforeAll, describe, expect, it } from "vitest";

// The import rules of eslint.config.js (docs/decisions/0006-eslint-boundaries.md), run through
// ESLint's own API on made-up files that import real modules. The rule resolves each import to a
// file, so every imported module below must exist; the first test says which one moved.
const ROOT = path.resolve(import.meta.dirname, "..");
const RULE = "import-x/no-restricted-paths";

const IMPORTED = [
  "app/db/schema.ts",
  "app/lib/cn.ts",
  "app/lib/logger.server.ts",
  "app/domain/categories/categories.schema.ts",
  "app/domain/categories/categories.server.ts",
  "app/components/ui/button.tsx",
  "app/routes/site/home.tsx",
  "app/root.tsx",
  "server/root.ts",
];

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: ROOT });
});

/** Lints `source` as if it were the file at `file` and returns the boundary rule's messages. */
async function boundaryProblems(file: string, source: string) {
  const [result] = await eslint.lintText(source, { filePath: path.join(ROOT, file) });
  return result.messages.filter((message) => message.ruleId === RULE).map((message) => message.message);
}

describe("import boundaries", () => {
  it("every module the cases import exists", () => {
    expect(IMPORTED.filter((file) => !existsSync(path.join(ROOT, file)))).toEqual([]);
  });

  it.each([
    ["app/lib/x.ts", `import { isSlug } from "~/domain/categories/categories.schema";`, "app/lib is infrastructure"],
    ["app/lib/x.ts", `import { isSlug } from "../domain/categories/categories.schema";`, "app/lib is infrastructure"],
    ["app/lib/nested/x.server.ts", `import { isSlug } from "../../domain/categories/categories.schema";`, "app/lib is infrastructure"],
    ["app/lib/x.ts", `import { Button } from "~/components/ui/button";`, "app/lib is infrastructure"],
    ["app/lib/x.ts", `import { rootDataFromMatches } from "~/root";`, "app/lib is infrastructure"],
    ["app/db/x.ts", `import { cn } from "~/lib/cn";`, "app/db is the bottom layer"],
    ["app/db/x.ts", `import { isSlug } from "../domain/categories/categories.schema";`, "app/db is the bottom layer"],
    ["app/domain/x.ts", `import { loader } from "~/routes/site/home";`, "app/domain may import app/lib and app/db"],
    ["app/domain/x/x.server.ts", `import { Button } from "../../components/ui/button";`, "app/domain may import app/lib and app/db"],
    ["app/components/x.tsx", `import { listCategories } from "~/domain/categories/categories.server";`, "Only *.server modules and route modules"],
    ["app/components/x.tsx", `import { createLogger } from "../lib/logger.server";`, "Only *.server modules and route modules"],
    ["app/lib/x.ts", `import { createLogger } from "./logger.server";`, "Only *.server modules and route modules"],
    ["app/domain/x/x.schema.ts", `import { listCategories } from "../categories/categories.server";`, "Only *.server modules and route modules"],
    ["app/components/x.tsx", `import { loader } from "~/routes/site/home";`, "Components may not import route modules"],
    ["app/routes/admin/x.tsx", `import { loader } from "../site/home";`, "Only app/routes.ts (by file name) and tests"],
    ["server/x.ts", `import { loader } from "../app/routes/site/home";`, "Only app/routes.ts (by file name) and tests"],
    ["app/lib/x.server.ts", `import { ROOT } from "../../server/root";`, "app/ may not import server/"],
  ])("%s: %s is refused", async (file, source, message) => {
    const problems = await boundaryProblems(file, `${source}\nexport const used = [${source.match(/\{ (\w+) \}/)![1]}];\n`);
    // An import from a route module into domain/ or components/ breaks two rules and is told both.
    expect(problems).toContainEqual(expect.stringContaining(message));
  });

  it.each([
    ["app/domain/x.ts", `import { cn } from "~/lib/cn";`],
    ["app/domain/x/x.server.ts", `import { cn } from "../../lib/cn";`],
    ["app/lib/x.server.ts", `import { createLogger } from "./logger.server";`],
    ["app/lib/x.ts", `import { articles } from "~/db/schema";`],
    ["app/components/x.tsx", `import { isSlug } from "~/domain/categories/categories.schema";`],
    ["app/routes/site/x.tsx", `import { listCategories } from "~/domain/categories/categories.server";`],
    ["app/routes/site/x.tsx", `import { Button } from "../../components/ui/button";`],
    ["app/routes/site/home.test.ts", `import { loader } from "./home";`],
    ["server/x.ts", `import { createLogger } from "../app/lib/logger.server";`],
  ])("%s: %s is allowed", async (file, source) => {
    const problems = await boundaryProblems(file, `${source}\nexport const used = [${source.match(/\{ (\w+) \}/)![1]}];\n`);
    expect(problems).toEqual([]);
  });
});
