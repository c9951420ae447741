import fs from "node:fs";
import path from "node:path";
import { createDb } from "../app/db/client.server";
import { clusterDirOf } from "../server/postgres-placement";
import { getArticleBySlug } from "../app/domain/articles/articles.server";
import { listArticleComments, countArticleComments } from "../app/domain/comments/comments.server";
import { listMoreFromCategory, listRelatedStories } from "../app/domain/articles/recirculation.server";
const dataDir = "/tmp/scale-data";
const { postgresPassword } = JSON.parse(fs.readFileSync(path.join(dataDir, "secrets.json"), "utf8"));
const port = Number(fs.readFileSync(path.join(clusterDirOf(dataDir), "postmaster.pid"), "utf8").split("\n")[3]);
const { db, pool } = createDb(`postgres://frontpage:${encodeURIComponent(postgresPassword)}@127.0.0.1:${port}/frontpage`);
const t = async <T>(name: string, f: () => Promise<T>) => { const s = performance.now(); const r = await f(); console.log(name, (performance.now() - s).toFixed(1), "ms"); return r; };
for (const slug of [process.argv[2] ?? "scale-33334"]) {
  const a = (await t("getArticleBySlug", () => getArticleBySlug(db, slug)))!;
  await t("comments", () => listArticleComments(db, a.id, {}));
  await t("count", () => countArticleComments(db, a.id));
  const more = await t("more", () => listMoreFromCategory(db, a.id, a.category!.slug));
  await t("related", () => listRelatedStories(db, a.id, more.map((m) => m.id)));
}
await pool.end();
