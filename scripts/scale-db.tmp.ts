import { buildScaleData, connectToDataDir } from "./bench-scale";
const db = await connectToDataDir(process.argv[2]!);
if (process.argv[3] === "build") console.log(await buildScaleData(db, 100_000, 1_000_000));
else for (const sql of process.argv.slice(3)) { const r = await db.query(sql); for (const row of r.rows ?? []) console.log(Object.values(row).join(" | ")); }
await db.end();
