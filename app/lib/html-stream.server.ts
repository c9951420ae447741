import { StringDecoder } from "node:string_decoder";
import { Transform } from "node:stream";

/** React Router's `<link rel="modulepreload" …/>`, as React writes it into the head. */
const MODULE_PRELOAD = /<link rel="modulepreload"[^>]*>/g;

/**
 * The stream a page's HTML goes out through (app/entry.server.tsx), with two jobs:
 *
 * - What React writes in one turn of the event loop leaves as one chunk (decision 0031). React writes a
 *   page in pieces of a few kilobytes; each piece, passed on alone, became a write to the socket of its
 *   own (about 40 for a home page) and a trip through every stream on the way. A page that streams
 *   later parts (a Suspense boundary) still sends each part when React writes it.
 * - `dropModulePreloads`: the page's `<link rel="modulepreload">` tags are left out (a reader page's
 *   rule, decision 0029: app/lib/path-classes.ts `preloadsScripts`). The module script at the end of
 *   the page still imports every file the page runs; only the early hint goes. A tag cut between two
 *   chunks waits for its end.
 */
export function htmlStream({ dropModulePreloads }: { dropModulePreloads: boolean }): Transform {
  const decoder = new StringDecoder("utf8");
  let pending = "";
  let gathered: Buffer[] = [];
  let sendAt: NodeJS.Immediate | null = null;

  const withoutPreloads = (text: string) => text.replace(MODULE_PRELOAD, "");

  /** What has been gathered, as one chunk (up to the last complete tag when preloads are dropped). */
  function take(): Buffer | string | null {
    const bytes = gathered.length === 1 ? gathered[0]! : Buffer.concat(gathered);
    gathered = [];
    if (!dropModulePreloads) return bytes.length ? bytes : null;
    const text = pending + decoder.write(bytes);
    const lastTag = text.lastIndexOf("<");
    const cut = lastTag !== -1 && text.indexOf(">", lastTag) === -1 ? lastTag : text.length;
    pending = text.slice(cut);
    return cut ? withoutPreloads(text.slice(0, cut)) : null;
  }

  const stream: Transform = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      gathered.push(chunk);
      sendAt ??= setImmediate(() => {
        sendAt = null;
        const out = take();
        if (out !== null) stream.push(out);
      });
      callback();
    },
    flush(callback) {
      if (sendAt) clearImmediate(sendAt);
      sendAt = null;
      const out = gathered.length ? take() : null;
      const rest = dropModulePreloads ? withoutPreloads(pending + decoder.end()) : "";
      if (out !== null) this.push(out);
      callback(null, rest || undefined);
    },
    destroy(error, callback) {
      if (sendAt) clearImmediate(sendAt);
      callback(error);
    },
  });
  return stream;
}
