// @vitest-environment happy-dom
import { act } from "react";
import { createRoot } from "react-dom/client";
import { describe, expect, test } from "vitest";
import { TagPicker } from "./tag-picker";

// The picker once its script runs: chips, the existing tags offered, Enter or a comma adding a name.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

function mount(initialNames: string[]) {
  const form = document.createElement("form");
  document.body.append(form);
  const root = createRoot(form);
  act(() => root.render(<TagPicker tags={[{ name: "Climate Change" }, { name: "Ferries" }]} initialNames={initialNames} />));
  const box = form.querySelector<HTMLInputElement>("input[list]")!;
  const field = () => new FormData(form).get("tags");
  const type = (text: string) =>
    act(() => {
      const setter = Object.getOwnPropertyDescriptor(window.HTMLInputElement.prototype, "value")!.set!;
      setter.call(box, text);
      box.dispatchEvent(new window.Event("input", { bubbles: true }));
    });
  const key = (name: string) => act(() => void box.dispatchEvent(new window.KeyboardEvent("keydown", { key: name, bubbles: true, cancelable: true })));
  return { form, box, field, type, key, root };
}

describe("the tag picker", () => {
  test("Enter adds a typed name (an existing tag in its own spelling), a comma adds too, Backspace in an empty box removes the last", () => {
    const { form, field, type, key, root } = mount(["Ferries"]);
    expect(field()).toBe("Ferries");
    // The existing tags not chosen yet are offered as you type.
    expect([...form.querySelectorAll("datalist option")].map((o) => o.getAttribute("value"))).toEqual(["Climate Change"]);
    type("climate-change");
    key("Enter");
    expect(field()).toBe("Ferries,Climate Change");
    type("Local news,");
    expect(field()).toBe("Ferries,Climate Change,Local news");
    type("");
    key("Backspace");
    expect(field()).toBe("Ferries,Climate Change");
    type("???");
    key("Enter");
    expect(field()).toBe("Ferries,Climate Change");
    expect(form.textContent).toContain("needs at least one letter or digit");
    act(() => root.unmount());
  });
});
