import fs from "node:fs/promises";
import path from "node:path";
import zlib from "node:zlib";
import { promisify } from "node:util";

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|xml|map)$/;

/** Writes .br and .gz beside every compressible built asset, so they are served without runtime compression. */
async function precompress(dir: string) {
  let count = 0;
  for (const entry of await fs.readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !COMPRESSIBLE.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    const body = await fs.readFile(file);
    if (body.length < 1024) continue;
    await fs.writeFile(`${file}.gz`, await gzip(body, { level: 9 }));
    await fs.writeFile(`${file}.br`, await brotli(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }));
    count++;
  }
  console.log(`precompressed ${count} assets`);
}

await precompress(path.resolve(import.meta.dirname, "../build/client/assets"));
