import { connectToDataDir } from "./bench-scale";
const db = await connectToDataDir("/tmp/scale-data");
for (const sql of process.argv.slice(2)) {
  const r = await db.query(sql);
  for (const row of r.rows ?? []) console.log(Object.values(row).join(" | "));
}
await db.end();
