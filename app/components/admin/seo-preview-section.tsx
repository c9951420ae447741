import { useEffect, useId, useRef, useState } from "react";
import { useRouteLoaderData } from "react-router";
import { Input, Label, Textarea } from "~/components/ui/input";
import { SEO_DESCRIPTION_MAX, SEO_TITLE_MAX, type ArticleFieldName } from "~/domain/articles/articles.schema";
import { focalPosition, type FocalPoint } from "~/lib/image-variants";
import { articleSearchAndSocial, describeArticle } from "~/lib/seo";
import type { RootData } from "~/root";
import { ArticleUploadField } from "./article-upload-field";
import { FieldError } from "./field-error";
import { SettingsSection } from "./article-settings-panel";

/** About where Google cuts a result's title and description. */
export const SEARCH_TITLE_SHOWN = 60;
export const SEARCH_DESCRIPTION_SHOWN = 155;

/** `text` cut at a word before `max` characters, with "…" (as a search result is). */
export function truncateForPreview(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

interface StoryTexts {
  title: string;
  slug: string;
  excerpt: string;
  content: string;
}

/** The story's texts as the form holds them now (the fields are the form's own: this section only reads them). */
function readTexts(form: HTMLFormElement): StoryTexts {
  const value = (name: string) => {
    const field = form.elements.namedItem(name);
    return field && "value" in field && typeof field.value === "string" ? field.value : "";
  };
  return { title: value("title"), slug: value("slug"), excerpt: value("excerpt"), content: value("content") };
}

/**
 * "Search and social preview" in the story's settings (issue 41): the story as a search result and as
 * a social post would show it, updated as the writer types, and the optional overrides of both: the
 * SEO title and description, and a social image of its own (from the media library, as the featured
 * image). Blank overrides: the headline, the standfirst and the featured image around its focal point.
 */
export function SeoPreviewSection({
  article,
  featuredImage,
  errors,
  onUploadingChange,
  onChange,
}: {
  article?: {
    title?: string;
    slug?: string;
    excerpt?: string | null;
    content?: string;
    featuredImage?: string | null;
    featuredImageFocus?: FocalPoint | null;
    seoTitle?: string | null;
    seoDescription?: string | null;
    socialImage?: string | null;
  };
  /** The featured image chosen now (the form's own field). */
  featuredImage: string;
  errors: Partial<Record<ArticleFieldName, string>>;
  onUploadingChange: (uploading: boolean) => void;
  onChange: () => void;
}) {
  const root = useRouteLoaderData("root") as RootData | undefined;
  const siteName = root?.settings.siteName ?? "Frontpage";
  const origin = root?.publicUrl ?? "";
  const host = origin ? new URL(origin).host : "";
  const id = useId();
  const section = useRef<HTMLDivElement>(null);
  const [texts, setTexts] = useState<StoryTexts>({
    title: article?.title ?? "",
    slug: article?.slug ?? "",
    excerpt: article?.excerpt ?? "",
    content: article?.content ?? "",
  });
  const [seoTitle, setSeoTitle] = useState(article?.seoTitle ?? "");
  const [seoDescription, setSeoDescription] = useState(article?.seoDescription ?? "");
  const [socialImage, setSocialImage] = useState(article?.socialImage ?? "");

  // The headline, address and standfirst live elsewhere in the form: read as they change. The story
  // editor writes its text field after its own input event, so the read waits for the next frame.
  useEffect(() => {
    const form = section.current?.closest("form");
    if (!form) return;
    let frame = 0;
    const read = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => setTexts(readTexts(form)));
    };
    read();
    form.addEventListener("input", read);
    form.addEventListener("change", read);
    return () => {
      cancelAnimationFrame(frame);
      form.removeEventListener("input", read);
      form.removeEventListener("change", read);
    };
  }, []);

  // The saved image's point; a newly chosen image shows its centre until the story is saved.
  const focus = featuredImage && featuredImage === article?.featuredImage ? (article?.featuredImageFocus ?? null) : null;
  const shown = articleSearchAndSocial({
    title: texts.title.trim() || "Headline",
    seoTitle,
    seoDescription,
    socialImage,
    featuredImage: featuredImage || null,
    featuredImageAlt: null,
    featuredImageFocus: focus,
    description: describeArticle(texts.excerpt, texts.content),
  });
  const path = ["article", texts.slug || "…"].join(" › ");

  const counter = (field: "seoTitle" | "seoDescription", length: number, max: number) => (
    <p id={`${id}-${field}-count`} className="text-xs text-slate-600">
      {length}/{max} characters
    </p>
  );

  return (
    <SettingsSection title="Search and social preview">
      <div ref={section} className="space-y-4">
        <figure className="space-y-1 rounded-md border border-slate-200 bg-white p-3" data-testid="search-preview">
          <figcaption className="text-xs font-medium text-slate-600">In search results</figcaption>
          <p className="truncate text-xs text-slate-800">
            {siteName} <span className="text-slate-600">{host ? `${host} › ${path}` : path}</span>
          </p>
          <p className="text-lg leading-snug break-words text-[#1a0dab]" data-testid="search-preview-title">
            {truncateForPreview(`${shown.title} | ${siteName}`, SEARCH_TITLE_SHOWN)}
          </p>
          <p className="text-sm break-words text-slate-700" data-testid="search-preview-description">
            {shown.description ? truncateForPreview(shown.description, SEARCH_DESCRIPTION_SHOWN) : "No description yet: write a standfirst or an SEO description."}
          </p>
        </figure>

        <figure className="overflow-hidden rounded-md border border-slate-200 bg-white" data-testid="social-preview">
          <figcaption className="px-3 pt-2 text-xs font-medium text-slate-600">As a social post</figcaption>
          {shown.image ? (
            <img
              src={shown.image}
              alt=""
              data-testid="social-preview-image"
              className="mt-2 aspect-[1.91/1] w-full object-cover"
              style={{ objectPosition: focalPosition(shown.imageFocus) }}
            />
          ) : (
            <div className="mt-2 flex aspect-[1.91/1] w-full items-center justify-center bg-slate-100 text-xs text-slate-600">The site&apos;s share image</div>
          )}
          <div className="space-y-0.5 bg-slate-50 px-3 py-2">
            <p className="text-xs text-slate-600 uppercase">{host || siteName}</p>
            <p className="line-clamp-2 font-semibold break-words text-slate-900" data-testid="social-preview-title">
              {shown.title}
            </p>
            <p className="line-clamp-2 text-sm break-words text-slate-700">{shown.description}</p>
          </div>
        </figure>

        <div className="space-y-2">
          <Label htmlFor="seoTitle">SEO title</Label>
          <Input
            id="seoTitle"
            name="seoTitle"
            value={seoTitle}
            maxLength={SEO_TITLE_MAX}
            onChange={(e) => setSeoTitle(e.target.value)}
            aria-invalid={errors.seoTitle ? true : undefined}
            aria-describedby={[`${id}-seoTitle-hint`, `${id}-seoTitle-count`, errors.seoTitle ? "seoTitle-error" : ""].filter(Boolean).join(" ")}
          />
          <p id={`${id}-seoTitle-hint`} className="text-xs text-slate-600">
            Optional: what search results and social posts show instead of the headline.
          </p>
          {counter("seoTitle", seoTitle.length, SEO_TITLE_MAX)}
          <FieldError id="seoTitle-error" message={errors.seoTitle} />
        </div>

        <div className="space-y-2">
          <Label htmlFor="seoDescription">SEO description</Label>
          <Textarea
            id="seoDescription"
            name="seoDescription"
            rows={3}
            value={seoDescription}
            maxLength={SEO_DESCRIPTION_MAX}
            onChange={(e) => setSeoDescription(e.target.value)}
            aria-invalid={errors.seoDescription ? true : undefined}
            aria-describedby={[`${id}-seoDescription-hint`, `${id}-seoDescription-count`, errors.seoDescription ? "seoDescription-error" : ""].filter(Boolean).join(" ")}
          />
          <p id={`${id}-seoDescription-hint`} className="text-xs text-slate-600">
            Optional: the description search results and social posts show instead of the standfirst.
          </p>
          {counter("seoDescription", seoDescription.length, SEO_DESCRIPTION_MAX)}
          <FieldError id="seoDescription-error" message={errors.seoDescription} />
        </div>

        <ArticleUploadField
          kind="image"
          name="socialImage"
          defaultUrl={article?.socialImage ?? null}
          error={errors.socialImage}
          labels={{
            legend: "Social image",
            upload: "Upload social image",
            remove: "Remove social image",
            successTitle: "Image uploaded",
            successText: "Social image uploaded successfully",
            preview: "Social image preview",
          }}
          onUploadingChange={onUploadingChange}
          onChange={onChange}
          onUrlChange={setSocialImage}
        />
      </div>
    </SettingsSection>
  );
}
