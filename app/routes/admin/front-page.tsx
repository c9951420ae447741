import { data } from "react-router";
import { FrontPageEditor, type FrontPageActionData } from "~/components/admin/front-page-editor";
import { actorOf } from "~/domain/accounts/actor";
import { requireCapability } from "~/domain/accounts/guard.server";
import { listCategoriesForNav } from "~/domain/categories/categories.server";
import { FRONT_PAGE_INTENTS, pinFormSchema, type FrontPageIntent } from "~/domain/front-page/front-page.schema";
import {
  featureStory,
  listPins,
  moveTopPin,
  pinStory,
  reorderTopPins,
  searchPinnableStories,
  setExploreCategories,
  setPinUntil,
  unfeatureStory,
  unpinStory,
} from "~/domain/front-page/front-page.server";
import { getSettings } from "~/domain/settings/settings.server";
import { AppError } from "~/lib/app-error";
import { formValues, parseForm, refuse } from "~/lib/forms";
import { backOfficeMeta } from "~/page-meta";
import type { Route } from "./+types/front-page";

// The front page the editors choose (issue 27, decision 0034): the home page's lead and top stories,
// each category page's first story, and Explore Topics. Every change is written at once; its change
// notice drops exactly the pages it changes, and the preview beside the controls is reloaded.

export const meta: Route.MetaFunction = ({ matches }) => backOfficeMeta(matches, { title: "Front page", path: "/admin/front-page" });

export function headers() {
  return { "Cache-Control": "no-store" };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireCapability(request, context, "frontPage.manage");
  const query = (new URL(request.url).searchParams.get("q") ?? "").trim().slice(0, 200);
  const [pins, categories, settings, results] = await Promise.all([
    listPins(context.db),
    listCategoriesForNav(context.db),
    getSettings(context.db),
    searchPinnableStories(context.db, query),
  ]);
  return data({ pins, categories, exploreCategoryIds: settings.exploreCategoryIds, query, results }, { headers: { "Cache-Control": "no-store" } });
}

const FIELDS = ["intent", "articleId", "placement", "categoryId", "until", "pinId", "direction", "order", "explore"] as const;

export async function action({ request, context }: Route.ActionArgs) {
  const actor = actorOf(await requireCapability(request, context, "frontPage.manage"));
  const form = await request.formData();
  const values = formValues(form, FIELDS);
  const timeZone = context.env.TIME_ZONE;
  const intent = values.intent as FrontPageIntent;
  const answer = (message: string) => data<FrontPageActionData>({ ok: true, intent, message }, { headers: { "Cache-Control": "no-store" } });
  try {
    if (!FRONT_PAGE_INTENTS.includes(intent)) throw new AppError("invalid_input", "Unknown action.");
    switch (intent) {
      case "pin": {
        const input = parseForm(pinFormSchema, values, { required: ["articleId"], missingMessage: "Choose a story to pin" });
        await pinStory(context.db, { ...input, categoryId: input.categoryId || undefined }, timeZone, actor);
        const where = input.placement === "lead" ? "the lead story" : input.placement === "top" ? "a top story" : "the first story of its category";
        return answer(`Pinned as ${where}.`);
      }
      case "unpin":
        await unpinStory(context.db, values.pinId, actor);
        return answer("Pin removed: the story falls back among the newest.");
      case "until":
        await setPinUntil(context.db, values.pinId, values.until, timeZone, actor);
        return answer(values.until ? "The pin's end is saved." : "The pin stays until you remove it.");
      case "move": {
        if (values.direction !== "up" && values.direction !== "down") throw new AppError("invalid_input", "Move a story up or down.");
        await moveTopPin(context.db, values.pinId, values.direction, actor);
        return answer(`Moved ${values.direction}.`);
      }
      case "reorder":
        await reorderTopPins(context.db, values.order.split(",").filter(Boolean), actor);
        return answer("Top stories reordered.");
      case "explore": {
        const chosen = values.explore === "chosen" ? form.getAll("categoryIds").map(String) : null;
        if (chosen && chosen.length === 0) throw new AppError("invalid_input", "Choose at least one category, or show them all.", { field: "explore" });
        await setExploreCategories(context.db, chosen, actor);
        return answer("Explore Topics saved.");
      }
      case "feature":
        await featureStory(context.db, values.articleId, timeZone, actor);
        return answer("Featured on the front page as a top story.");
      case "unfeature":
        await unfeatureStory(context.db, values.articleId, actor);
        return answer("No longer featured on the front page.");
    }
  } catch (error) {
    return refuse(error, values, { headers: { "Cache-Control": "no-store" } });
  }
}

export default function FrontPage({ loaderData }: Route.ComponentProps) {
  return <FrontPageEditor {...loaderData} />;
}
