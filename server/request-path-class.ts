import type express from "express";
import { classifyPath, type PathMatch } from "../app/lib/path-classes";

const classified = new WeakMap<express.Request, { path: string; match: PathMatch }>();

/**
 * The class of a request's path (app/lib/path-classes.ts), its rules and route parameters, worked
 * out once per request however many layers ask. For middlewares mounted at the root (req.path is
 * the whole path).
 */
export function pathClassOf(req: express.Request): PathMatch {
  const known = classified.get(req);
  if (known && known.path === req.path) return known.match;
  const match = classifyPath(req.path);
  classified.set(req, { path: req.path, match });
  return match;
}
