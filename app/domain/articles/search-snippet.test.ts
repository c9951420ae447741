import { describe, expect, it } from "vitest";
import { FRAGMENT_DELIMITER as D, MARK_END as E, MARK_START as S, snippetOf } from "./search.schema";

const LIBRARY =
  "The city opened its new library on Monday. Crowds lined the street before dawn, and the mayor gave a short speech. " +
  "Inside, the reading rooms were bright and quiet, with shelves for forty thousand books. Later in the afternoon the council " +
  "discussed the harbour bridge, which has been closed since spring for repairs that ran over budget. Engineers said the work " +
  "would take another month. Residents who cross the river every day said they were tired of the detour, which adds half an " +
  "hour to each trip. The library will stay open until nine every evening.";

/** The snippet as a reader sees it: markers shown as [brackets]. */
const shown = (snippet: string) => snippet.replaceAll(S, "[").replaceAll(E, "]");

describe("snippetOf", () => {
  it("starts a passage in the middle of a long paragraph at the sentence that holds the match, and ends it with … when the text goes on", () => {
    // What ts_headline gave for "harbour" (MaxWords=32, MinWords=12, MaxFragments=2).
    const headline = `quiet, with shelves for forty thousand books. Later in the afternoon the council discussed the ${S}harbour${E} bridge, which has been closed since spring for repairs that ran over budget. Engineers said`;
    expect(shown(snippetOf(LIBRARY, headline))).toBe(
      "Later in the afternoon the council discussed the [harbour] bridge, which has been closed since spring for repairs that ran over budget. Engineers said the work would take another month. …",
    );
  });

  it("reaches back a few words to the start of the sentence (ts_headline leaves out short words such as “The”)", () => {
    const headline = `city opened its new ${S}library${E} on Monday. Crowds lined the street before dawn, and the mayor gave a short speech. Inside, the reading rooms were bright and quiet, with shelves for forty${D}they were tired of the detour, which adds half an hour to each trip. The ${S}library${E} will stay open until nine every evening`;
    expect(shown(snippetOf(LIBRARY, headline))).toBe(
      "The city opened its new [library] on Monday. Crowds lined the street before dawn, and the mayor gave a short speech. Inside, the reading rooms were bright and quiet, with shelves for forty thousand books. … " +
        "they were tired of the detour, which adds half an hour to each trip. The [library] will stay open until nine every evening.",
    );
  });

  it("starts with … when no sentence starts near the passage or before its first match", () => {
    const text = "Negotiators from both sides of the long dispute over fishing quotas, grazing rights and the upkeep of the harbour walls met again on Tuesday in a room above the old customs house.";
    const headline = `the upkeep of the ${S}harbour${E} walls met again on Tuesday`;
    expect(shown(snippetOf(text, headline))).toBe("…the upkeep of the [harbour] walls met again on Tuesday in a room above the old customs house.");
  });

  it("ends with … right after the last word when no sentence ends near it", () => {
    const text = `${"Word ".repeat(5)}the ${"very long clause without a full stop and with many words in it ".repeat(4)}end.`;
    const headline = `Word Word Word Word Word the ${S}very${E} long clause without a full stop and with`;
    expect(shown(snippetOf(text, headline))).toBe("Word Word Word Word Word the [very] long clause without a full stop and with…");
  });

  it("shows a short text whole: no … at either end, its own full stop kept", () => {
    expect(shown(snippetOf("Traffic flows again over the harbour bridge.", `Traffic flows again over the ${S}harbour${E} bridge`))).toBe("Traffic flows again over the [harbour] bridge.");
  });

  it("folds spaces and line breaks, and starts a sentence after a paragraph break even without a full stop", () => {
    const text = "Road closures\n\nThe   harbour bridge is shut.\nDivers inspect its piers this week, before the repairs.";
    expect(shown(snippetOf(text, `harbour bridge is shut. Divers inspect its piers`))).toBe(
      "The harbour bridge is shut. Divers inspect its piers this week, before the repairs.",
    );
    expect(shown(snippetOf(text, `Road closures\n\nThe ${S}harbour${E}`))).toMatch(/^Road closures The \[harbour\] bridge is shut\. …$/);
  });

  it("keeps an opening quote and a match at the very start or end of the passage", () => {
    const text = "After the vote she said nothing changes for the ferry users tonight. “Harbour fees stay as they are.” Everyone left.";
    expect(shown(snippetOf(text, `${S}Harbour${E} fees stay as they ${S}are${E}`))).toBe("“[Harbour] fees stay as they [are].” …");
    expect(shown(snippetOf("Quiet night in the harbour", `Quiet night in the ${S}harbour${E}`))).toBe("Quiet night in the [harbour]");
  });

  it("joins passages that meet into one", () => {
    const text = "One two three. Four five six seven. Eight nine ten.";
    expect(shown(snippetOf(text, `${S}One${E} two${D}three. Four ${S}five${E}`))).toBe("[One] two three. Four [five] six seven. …");
    expect(shown(snippetOf(text, `${S}One${E} two${D}Eight nine`))).toBe("[One] two three. … Eight nine ten.");
  });

  it("shows a passage it cannot place as it came, with … where it does not start or end the text, and nothing for nothing", () => {
    expect(shown(snippetOf("Alpha beta gamma. Delta epsilon.", `beta <b>gamma</b>`))).toBe("…beta <b>gamma</b>…");
    expect(snippetOf("", "")).toBe("");
  });
});
