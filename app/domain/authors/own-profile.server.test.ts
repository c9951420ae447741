import fs from "node:fs/promises";
import path from "node:path";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { authors, user } from "~/db/schema";
import { SYSTEM_ACTOR } from "~/domain/accounts/actor";
import { parseForm } from "~/lib/forms";
import { setUpArticleFixture } from "../../../tests/setup/article-fixture";
import { refusal } from "../../../tests/setup/refusal";
import { AUTHOR_PHOTO_INVALID } from "./authors.server";
import { authorProfileAsked, markAuthorProfileAsked, ownAuthor, ownProfileSchema, saveOwnAuthorProfile } from "./own-profile.server";

const fx = setUpArticleFixture("own-profile");
const PHOTO = "/media/images/1700000000000-newcomer.png";

beforeAll(async () => {
  await fs.mkdir(path.join(fx.mediaRoot, "images"), { recursive: true });
  await fs.writeFile(path.join(fx.mediaRoot, "images", "1700000000000-newcomer.png"), "png");
});

async function member(id: string, name: string) {
  await fx.t.db.insert(user).values({ id, name, email: `${id}@example.com` });
  const [author] = await fx.t.db.insert(authors).values({ name, slug: id, userId: id, websiteUrl: "https://kept.example/" }).returning({ id: authors.id });
  return author!.id;
}

const input = (values: Partial<Record<"roleTitle" | "bio" | "photoUrl", string>>) => parseForm(ownProfileSchema, { roleTitle: "", bio: "", photoUrl: "", ...values });

describe("a new team member's author page (issue 41)", () => {
  it("saves role, bio and photo on the member's own author record only, keeps its other fields, and marks them asked", async () => {
    const mine = await member("newcomer-1", "Nia Newcomer");
    const theirs = await member("colleague-1", "Cal Colleague");
    expect(await authorProfileAsked(fx.t.db, "newcomer-1")).toBe(false);
    await saveOwnAuthorProfile(fx.t.db, fx.storage, "newcomer-1", input({ roleTitle: " Harbour reporter ", bio: "Covers the port.", photoUrl: PHOTO }), SYSTEM_ACTOR);
    expect(await ownAuthor(fx.t.db, "newcomer-1")).toMatchObject({ id: mine, roleTitle: "Harbour reporter", bio: "Covers the port.", photoUrl: PHOTO, slug: "newcomer-1" });
    const [kept] = await fx.t.db.select().from(authors).where(eq(authors.id, mine));
    expect(kept).toMatchObject({ name: "Nia Newcomer", websiteUrl: "https://kept.example/", userId: "newcomer-1" });
    expect(await ownAuthor(fx.t.db, "colleague-1")).toMatchObject({ id: theirs, roleTitle: null, bio: null, photoUrl: null });
    expect(await authorProfileAsked(fx.t.db, "newcomer-1")).toBe(true);
    expect(await authorProfileAsked(fx.t.db, "colleague-1")).toBe(false);
  });

  it("refuses what the author form refuses, and writes nothing then", async () => {
    await member("newcomer-2", "Noa Newcomer");
    const long = await refusal(() => input({ roleTitle: "x".repeat(121) }));
    expect(long.fieldErrors?.roleTitle).toBe("Role title must be at most 120 characters");
    const foreign = await refusal(saveOwnAuthorProfile(fx.t.db, fx.storage, "newcomer-2", input({ photoUrl: "https://elsewhere.example/face.png" }), SYSTEM_ACTOR));
    expect(foreign.message).toBe(AUTHOR_PHOTO_INVALID);
    expect(await ownAuthor(fx.t.db, "newcomer-2")).toMatchObject({ roleTitle: null, photoUrl: null });
    expect(await authorProfileAsked(fx.t.db, "newcomer-2")).toBe(false);
  });

  it("skipping marks them asked once and writes nothing else; an account without an author record is refused", async () => {
    await member("newcomer-3", "Ned Newcomer");
    await markAuthorProfileAsked(fx.t.db, "newcomer-3");
    const [first] = await fx.t.db.select({ at: user.authorProfileAskedAt }).from(user).where(eq(user.id, "newcomer-3"));
    await markAuthorProfileAsked(fx.t.db, "newcomer-3");
    const [second] = await fx.t.db.select({ at: user.authorProfileAskedAt }).from(user).where(eq(user.id, "newcomer-3"));
    expect(second!.at).toEqual(first!.at);
    expect(await ownAuthor(fx.t.db, "newcomer-3")).toMatchObject({ roleTitle: null, bio: null, photoUrl: null });
    await fx.t.db.insert(user).values({ id: "no-author", name: "No Author", email: "no-author@example.com" });
    expect((await refusal(saveOwnAuthorProfile(fx.t.db, fx.storage, "no-author", input({ roleTitle: "X" }), SYSTEM_ACTOR))).code).toBe("not_found");
  });
});
