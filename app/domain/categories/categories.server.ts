import { asc } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { categories } from "~/db/schema";
import { DEFAULT_CATEGORIES } from "./categories.schema";
import type { CategorySummary } from "./categories.schema";

const NAV_ORDER: string[] = DEFAULT_CATEGORIES.map((c) => c.slug);

/** Categories for navigation: the six known ones in their spec order, then any others by name. */
export async function listCategoriesForNav(db: Db): Promise<CategorySummary[]> {
  const rows = await db
    .select({ id: categories.id, name: categories.name, slug: categories.slug })
    .from(categories)
    .orderBy(asc(categories.name));
  const rank = (slug: string) => {
    const i = NAV_ORDER.indexOf(slug);
    return i === -1 ? NAV_ORDER.length : i;
  };
  return rows.sort((a, b) => rank(a.slug) - rank(b.slug));
}

/** All categories ordered by name (the spec's read). */
export async function listCategories(db: Db): Promise<CategorySummary[]> {
  return db
    .select({ id: categories.id, name: categories.name, slug: categories.slug })
    .from(categories)
    .orderBy(asc(categories.name));
}

