import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { createElement, type ComponentType } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { twMerge } from "tailwind-merge";
import { describe, expect, it } from "vitest";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Input, Label, Textarea } from "~/components/ui/input";
import { Skeleton } from "~/components/ui/skeleton";

// cn() joins classes without resolving Tailwind conflicts (app/lib/cn.ts): two classes setting one
// property would leave the winner to the stylesheet's order. tailwind-merge, here only, finds them.

const APP = path.resolve(import.meta.dirname, "../..");
const sources = (readdirSync(APP, { recursive: true }) as string[])
  .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
  .map((file) => ({ file, code: readFileSync(path.join(APP, file), "utf8") }));

/** The classes twMerge would drop from `classes` (each conflicts with a later one). */
const overridden = (classes: string) => {
  const kept = new Set(twMerge(classes).split(/\s+/));
  return classes.split(/\s+/).filter((c) => c && !kept.has(c));
};

/** The text of each `cn(…)` call, its parentheses balanced. */
function cnCalls(code: string): string[] {
  const calls: string[] = [];
  for (const match of code.matchAll(/\bcn\(/g)) {
    let depth = 0;
    for (let i = match.index + 2; i < code.length; i++) {
      if (code[i] === "(") depth++;
      else if (code[i] === ")" && --depth === 0) {
        calls.push(code.slice(match.index + 3, i));
        break;
      }
    }
  }
  return calls;
}

const LITERAL = /"([^"]*)"|`([^`$]*)`/g;

describe("no class a caller passes is overridden by another in the same element", () => {
  it("in each cn() call, no two of its strings set one property (a ternary's two branches excepted)", () => {
    const found: string[] = [];
    for (const { file, code } of sources) {
      for (const call of cnCalls(code)) {
        const alternatives = new Set<string>();
        for (const [, a, b] of call.matchAll(/\?\s*(?:"([^"]*)"|`[^`]*`)\s*:\s*(?:"([^"]*)"|`[^`]*`)/g)) if (a !== undefined && b !== undefined) alternatives.add(`${a}\n${b}`);
        const strings = [...call.matchAll(LITERAL)].map((m) => m[1] ?? m[2] ?? "");
        for (let i = 0; i < strings.length; i++) {
          for (let j = i + 1; j < strings.length; j++) {
            if (alternatives.has(`${strings[i]}\n${strings[j]}`)) continue;
            const lost = overridden(`${strings[i]} ${strings[j]}`);
            if (lost.length > 0) found.push(`${file}: "${strings[i]}" then "${strings[j]}" (${lost.join(" ")} lost)`);
          }
        }
      }
    }
    expect(found).toEqual([]);
  });

  it("a ui component's use sets nothing its own classes set", () => {
    const components: Record<string, ComponentType<Record<string, unknown>>> = { Button, Input, Textarea, Label, Badge, Skeleton } as never;
    const found: string[] = [];
    let checked = 0;
    for (const { file, code } of sources) {
      for (const [tag, name, attributes] of code.matchAll(/<(Button|Input|Textarea|Label|Badge|Skeleton)\b((?:=>|[^>])*?)\/?>/g)) {
        const className = /\bclassName="([^"]*)"/.exec(attributes!)?.[1];
        if (!className) continue;
        const props: Record<string, unknown> = { className };
        for (const prop of ["variant", "size"]) {
          const value = new RegExp(`\\b${prop}="([^"]*)"`).exec(attributes!)?.[1];
          if (value) props[prop] = value;
        }
        const html = renderToStaticMarkup(createElement(components[name!]!, props));
        const classes = /class="([^"]*)"/.exec(html)![1]!;
        checked++;
        const lost = overridden(classes);
        if (lost.length > 0) found.push(`${file}: ${tag.slice(0, 80)} (${lost.join(" ")} lost)`);
      }
    }
    expect(checked).toBeGreaterThan(20);
    expect(found).toEqual([]);
  });
});
