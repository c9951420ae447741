import { Transform } from "node:stream";

/** React Router's `<link rel="modulepreload" …/>`, as React writes it into the head. */
const MODULE_PRELOAD = /<link rel="modulepreload"[^>]*>/g;
const PRELOAD_START = Buffer.from('<link rel="modulepreload"');
const LT = 0x3c;
const GT = 0x3e;
const EMPTY = Buffer.alloc(0);

function joined(pending: Buffer, gathered: Buffer[]): Buffer {
  if (!pending.length && gathered.length === 1) return gathered[0]!;
  return Buffer.concat(pending.length ? [pending, ...gathered] : gathered);
}

/**
 * `bytes` without their preload tags. Only the stretch from the first tag to the end of the last is read
 * as text (both ends fall between characters: at "<" and after ">"); the rest passes as it came.
 */
function withoutPreloads(bytes: Buffer): Buffer {
  const first = bytes.indexOf(PRELOAD_START);
  if (first === -1) return bytes;
  const lastEnd = bytes.indexOf(GT, bytes.lastIndexOf(PRELOAD_START));
  const end = lastEnd === -1 ? bytes.length : lastEnd + 1;
  const stripped = Buffer.from(bytes.toString("utf8", first, end).replace(MODULE_PRELOAD, ""));
  return Buffer.concat([bytes.subarray(0, first), stripped, bytes.subarray(end)]);
}

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
  let pending: Buffer = EMPTY;
  let gathered: Buffer[] = [];
  let sendAt: NodeJS.Immediate | null = null;

  /**
   * What has been gathered, as one chunk (up to the last complete tag when preloads are dropped). The
   * bytes are read as text only up to the end of the last preload tag (the head): the rest of the page
   * passes as it came. A cut at "<" is always between two characters (that byte is never inside one).
   */
  function take(): Buffer | null {
    const bytes = joined(pending, gathered);
    gathered = [];
    if (!dropModulePreloads) return bytes.length ? bytes : null;
    const lastTag = bytes.lastIndexOf(LT);
    const cut = lastTag !== -1 && bytes.indexOf(GT, lastTag) === -1 ? lastTag : bytes.length;
    pending = bytes.subarray(cut);
    return cut ? withoutPreloads(bytes.subarray(0, cut)) : null;
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
      const rest = pending.length ? withoutPreloads(pending) : null;
      pending = EMPTY;
      if (out !== null) this.push(out);
      callback(null, rest?.length ? rest : undefined);
    },
    destroy(error, callback) {
      if (sendAt) clearImmediate(sendAt);
      callback(error);
    },
  });
  return stream;
}
