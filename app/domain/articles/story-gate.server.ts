import type { AppLoadContext } from "react-router";
import { variantFor, type StoryAccess, type Variant } from "~/domain/members/access";
import { readerOfRequest } from "~/domain/members/request-reader.server";
import type { PageGate } from "./articles.server";
import { isGated } from "./story-paywall";

/**
 * Which copy of a gated story's page this render makes (issue 40, decision 0054): the page cache's
 * door names the class in `context.variant` for every render it may keep. Without one, the render is
 * for one reader the cache does not serve (a staff session's page): their own copy, from their
 * sessions (readerOfRequest: staff read the whole story, a member their class, anyone else the
 * anonymous teaser; the meter is the door's, not a render's). Public stories are whole for everyone
 * and ask nothing.
 */
export async function variantOfRender(request: Request, context: AppLoadContext, access: StoryAccess): Promise<Variant> {
  if (!isGated(access)) return "full";
  if (context.variant) return context.variant;
  return variantFor(await readerOfRequest(request, context), access);
}

/**
 * A story page's gate: its variant, the paywall and meter settings (from the kept site frame: no
 * query), and the note the page cache keeps with a gated page (`context.gate.note`).
 */
export async function pageGateOf(request: Request, context: AppLoadContext, story: { id: string; access: StoryAccess }): Promise<PageGate> {
  // A public story is whole for everyone: nothing to read, nothing to note.
  if (!isGated(story.access)) return { variant: "full", paragraphs: 0, meterAnonymous: 0, meterMembers: 0 };
  if (context.gate) context.gate.note = { access: story.access, articleId: story.id };
  const [variant, frame] = await Promise.all([variantOfRender(request, context, story.access), context.siteFrame()]);
  const { paywallParagraphs, meterAnonymous, meterMembers } = frame.settings;
  return { variant, paragraphs: paywallParagraphs, meterAnonymous, meterMembers };
}
