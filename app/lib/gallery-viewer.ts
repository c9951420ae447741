/**
 * The reader page's full-screen viewer of a story's galleries (issue 41, decision 0057), loaded only on
 * a page whose story has one (useGalleryViewer). Without it, each picture of a gallery is a link to the
 * whole image; with it, a click opens the picture in a native <dialog> (showModal: the rest of the page
 * inert, focus kept inside, Escape closes), large with its caption and "n of N", Previous/Next buttons,
 * the Left/Right keys and a swipe on a touch screen; closed, focus goes back to the picture's link.
 * No inline script or style attribute (the page's Content-Security-Policy): its look is app.css's.
 */

interface Picture {
  link: HTMLAnchorElement;
  src: string;
  alt: string;
  caption: string;
}

const GALLERY = "[data-story-gallery]";
/** How far a swipe travels, sideways, before it turns the picture. */
const SWIPE_PX = 40;

/** The picture shown large: our media's 1280-wide variant when there is one. */
const largeOf = (href: string) => (/^\/media\/images\/[^?]+$/.test(href) && !/\.gif$/i.test(href) ? `${href}?w=1280` : href);

function picturesOf(gallery: Element): Picture[] {
  return [...gallery.querySelectorAll<HTMLAnchorElement>("a.story-gallery-link")].map((link) => ({
    link,
    src: link.getAttribute("href") ?? "",
    alt: link.querySelector("img")?.getAttribute("alt") ?? "",
    caption: link.closest("figure")?.querySelector("figcaption")?.textContent?.trim() ?? "",
  }));
}

function button(className: string, label: string, text: string): HTMLButtonElement {
  const b = document.createElement("button");
  b.type = "button";
  b.className = className;
  b.setAttribute("aria-label", label);
  b.textContent = text;
  return b;
}

/** Builds the viewer's dialog (once per page) and returns its controls. */
function createViewer(doc: Document) {
  const dialog = doc.createElement("dialog");
  dialog.className = "gallery-viewer";
  dialog.setAttribute("aria-label", "Gallery viewer");
  const stage = doc.createElement("div");
  stage.className = "gallery-viewer-stage";
  const img = doc.createElement("img");
  img.className = "gallery-viewer-image";
  img.decoding = "async";
  stage.append(img);
  const text = doc.createElement("p");
  text.className = "gallery-viewer-text";
  const count = doc.createElement("span");
  count.className = "gallery-viewer-count";
  count.setAttribute("aria-live", "polite");
  const caption = doc.createElement("span");
  caption.className = "gallery-viewer-caption";
  text.append(count, caption);
  const prev = button("gallery-viewer-prev", "Previous image", "‹");
  const next = button("gallery-viewer-next", "Next image", "›");
  const close = button("gallery-viewer-close", "Close viewer", "×");
  dialog.append(close, stage, text, prev, next);
  doc.body.append(dialog);
  return { dialog, stage, img, count, caption, prev, next, close };
}

/** Makes the page's galleries open in the viewer; returns what undoes it. */
export function attachGalleryViewer(doc: Document): () => void {
  let viewer: ReturnType<typeof createViewer> | null = null;
  let pictures: Picture[] = [];
  let at = 0;
  let opener: HTMLAnchorElement | null = null;

  const show = (index: number) => {
    if (!viewer || pictures.length === 0) return;
    at = (index + pictures.length) % pictures.length;
    const picture = pictures[at]!;
    viewer.img.src = largeOf(picture.src);
    viewer.img.alt = picture.alt;
    viewer.count.textContent = `${at + 1} of ${pictures.length}`;
    viewer.caption.textContent = picture.caption;
  };

  const ensureViewer = () => {
    if (viewer) return viewer;
    const v = createViewer(doc);
    v.prev.addEventListener("click", () => show(at - 1));
    v.next.addEventListener("click", () => show(at + 1));
    v.close.addEventListener("click", () => v.dialog.close());
    v.dialog.addEventListener("keydown", (event) => {
      if (event.key === "ArrowLeft") {
        event.preventDefault();
        show(at - 1);
      } else if (event.key === "ArrowRight") {
        event.preventDefault();
        show(at + 1);
      }
    });
    // A click on the backdrop (outside the picture and the controls) closes, as Escape does.
    v.dialog.addEventListener("click", (event) => {
      if (event.target === v.dialog || event.target === v.stage) v.dialog.close();
    });
    v.dialog.addEventListener("close", () => {
      opener?.focus();
      opener = null;
    });
    let startX: number | null = null;
    v.stage.addEventListener("pointerdown", (event) => {
      if (event.pointerType !== "mouse") startX = event.clientX;
    });
    v.stage.addEventListener("pointerup", (event) => {
      if (startX === null) return;
      const dx = event.clientX - startX;
      startX = null;
      if (Math.abs(dx) >= SWIPE_PX) show(dx < 0 ? at + 1 : at - 1);
    });
    v.stage.addEventListener("pointercancel", () => (startX = null));
    viewer = v;
    return v;
  };

  const onClick = (event: MouseEvent) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = (event.target as Element | null)?.closest?.<HTMLAnchorElement>("a.story-gallery-link");
    const gallery = link?.closest(GALLERY);
    if (!link || !gallery) return;
    const v = ensureViewer();
    if (typeof v.dialog.showModal !== "function") return;
    event.preventDefault();
    pictures = picturesOf(gallery);
    opener = link;
    show(Math.max(0, pictures.findIndex((p) => p.link === link)));
    v.dialog.showModal();
    v.close.focus();
  };

  doc.addEventListener("click", onClick);
  return () => {
    doc.removeEventListener("click", onClick);
    viewer?.dialog.remove();
    viewer = null;
  };
}
