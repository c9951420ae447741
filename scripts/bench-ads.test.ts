import { describe, expect, it } from "vitest";
import { AdBook } from "~/domain/ads/ad-book.server";
import { adFragmentHtml } from "~/domain/ads/ad-fragment.server";
import { adToken } from "~/domain/ads/ad-token.server";
import { createLogger } from "~/lib/logger.server";
import { createTestDatabase } from "../tests/setup/test-database";
import { campaignsOf, makeCampaigns } from "./bench-ads";

// The ads bench's pieces (issue 43): how it reads which campaign an answer carried, and the campaigns
// it makes, as the serving side's book loads and fills them. The whole bench runs by
// `npm run bench -- --ads`, never in the test suite.

const TIME_ZONE = "America/New_York";
const CAMPAIGN = "0a9f7a0e-4a55-4a43-9a52-0d8a0f6f1c11";
const CREATIVE = "5b1c6d2e-3f40-4a51-8b62-7c8d9e0f1a22";

describe("the ads bench's pieces", () => {
  it("reads the campaign of each ad an answer carries from the fragments the door puts in", () => {
    const token = adToken("secret", { campaignId: CAMPAIGN, creativeId: CREATIVE, slot: "article" });
    const image = adFragmentHtml({ kind: "image", size: "box", imageUrl: "/media/images/a.jpg", alt: "An ad", linkUrl: "https://advertiser.example/" }, token, false);
    const text = adFragmentHtml({ kind: "text", size: "box", headline: "Buy", body: "Now", linkUrl: "https://advertiser.example/" }, token, true);
    expect(campaignsOf(`<main>${image}</main>`)).toEqual([CAMPAIGN]);
    expect(campaignsOf(`<main>${image}<p>story</p>${text}</main>`)).toEqual([CAMPAIGN, CAMPAIGN]);
    expect(campaignsOf("<main><!--frontpage-slot:article-in-news--></main>")).toEqual([]);
  });

  it("makes campaigns in the article slot that the book loads and fills by their weights", async () => {
    const { db, pool } = await createTestDatabase();
    const advertiser = await pool.query<{ id: string }>(`insert into advertisers (name) values ('Bench Advertiser') returning id`);
    const media = await pool.query<{ id: string }>(
      `insert into media (bucket, name, original_name, content_type, size) values ('images', 'cover.jpg', 'cover.jpg', 'image/jpeg', 1000) returning id`,
    );
    const images = await makeCampaigns(pool, advertiser.rows[0]!.id, "Image", [1, 2, 7], { kind: "image", mediaId: media.rows[0]!.id }, TIME_ZONE);
    const texts = await makeCampaigns(pool, advertiser.rows[0]!.id, "Text", [5], { kind: "text" }, TIME_ZONE);
    // A campaign paused is left out: only the weighted ones fill the slot.
    await pool.query(`update ad_campaigns set paused = true where id = any($1::uuid[])`, [texts]);

    let seed = 1;
    // A fixed sequence (a linear congruential generator): the same spread every run.
    const random = () => ((seed = (seed * 48271) % 2147483647) - 1) / 2147483646;
    const book = new AdBook(db, createLogger("silent"), { timeZone: TIME_ZONE, secret: "secret", random });
    await book.reload();
    expect(book.size).toBe(3);
    const carried = new Map(images.map((id) => [id, 0]));
    const counted: string[] = [];
    for (let i = 0; i < 10_000; i++) {
      const fill = book.fill(["article-in-news"], (key) => counted.push(key));
      const ids = campaignsOf(fill!.fills["article-in-news"]!.bytes.toString());
      expect(ids).toHaveLength(1);
      carried.set(ids[0]!, carried.get(ids[0]!)! + 1);
    }
    expect(counted).toHaveLength(10_000);
    const shares = images.map((id) => carried.get(id)! / 100);
    expect(Math.abs(shares[0]! - 10)).toBeLessThanOrEqual(3);
    expect(Math.abs(shares[1]! - 20)).toBeLessThanOrEqual(3);
    expect(Math.abs(shares[2]! - 70)).toBeLessThanOrEqual(3);
    // The image creatives show the media library's file.
    expect(book.fill(["article"], () => {})!.fills.article!.bytes.toString()).toContain("/media/images/cover.jpg");
  });
});
