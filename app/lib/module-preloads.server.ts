import { StringDecoder } from "node:string_decoder";
import { Transform } from "node:stream";

/** React Router's `<link rel="modulepreload" …/>`, as React writes it into the head. */
const MODULE_PRELOAD = /<link rel="modulepreload"[^>]*>/g;

/**
 * The page's HTML without its `<link rel="modulepreload">` tags (a reader page's rule, decision 0029:
 * app/lib/path-classes.ts `preloadsScripts`). The module script at the end of the page still imports
 * every file the page runs; only the early hint goes. A tag cut between two chunks waits for its end.
 */
export function withoutModulePreloads(): Transform {
  const decoder = new StringDecoder("utf8");
  let pending = "";
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      const text = pending + decoder.write(chunk);
      const lastTag = text.lastIndexOf("<");
      const cut = lastTag !== -1 && text.indexOf(">", lastTag) === -1 ? lastTag : text.length;
      pending = text.slice(cut);
      callback(null, text.slice(0, cut).replace(MODULE_PRELOAD, ""));
    },
    flush(callback) {
      callback(null, (pending + decoder.end()).replace(MODULE_PRELOAD, ""));
    },
  });
}
