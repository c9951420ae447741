import zlib from "node:zlib";
import { readerJavaScript } from "./reader-javascript";
const get = async (u: string) => Buffer.from(await (await fetch(u)).arrayBuffer());
const r = await readerJavaScript("http://127.0.0.1:3395", process.argv[2] ?? "/", get);
const rows = [];
for (const f of r.files) { const b = await get("http://127.0.0.1:3395" + f); rows.push([zlib.gzipSync(b, { level: 9 }).length, f]); }
rows.sort((a, b) => (b[0] as number) - (a[0] as number));
for (const [n, f] of rows) console.log(String(n).padStart(7), f);
console.log("total", r.gzipBytes);
