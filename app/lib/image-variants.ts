/** Widths of the resized WebP variants the media route makes on demand (`?w=`). */
export const IMAGE_VARIANT_WIDTHS = [320, 480, 640, 960, 1280, 1600] as const;

/** A `srcset` for one of our stored images (none for outside URLs or GIFs, which stay as they are). */
export function imageSrcSet(url: string | null | undefined, widths: readonly number[]): string | undefined {
  if (!isResizableImageUrl(url)) return undefined;
  return widths.map((w) => `${url}?w=${w} ${w}w`).join(", ");
}

/**
 * The cropped variants search engines ask for (`?crop=16x9` etc.): exactly CROP_WIDTH wide, cut to
 * the ratio around the image's centre of interest (and enlarged when the source is smaller, so the
 * size a page declares is always the size served).
 */
export const IMAGE_CROPS = { "16x9": [16, 9], "4x3": [4, 3], "1x1": [1, 1] } as const satisfies Record<string, readonly [number, number]>;
export type ImageCrop = keyof typeof IMAGE_CROPS;
export const CROP_WIDTH = 1200;

export function isImageCrop(value: unknown): value is ImageCrop {
  return typeof value === "string" && Object.hasOwn(IMAGE_CROPS, value);
}

/** A crop's width and height in pixels. */
export function cropSize(crop: ImageCrop): { width: number; height: number } {
  const [w, h] = IMAGE_CROPS[crop];
  return { width: CROP_WIDTH, height: Math.round((CROP_WIDTH * h) / w) };
}

/** Whether the media route can resize and crop this image (our stored JPEG/PNG/WebP; not GIFs or outside URLs). */
export function isResizableImageUrl(url: string | null | undefined): url is string {
  return Boolean(url && url.startsWith("/media/images/") && !/\.gif$/i.test(url));
}

/** The URL of one crop of our own image; null for an image the media route cannot crop. */
export function imageCropUrl(url: string | null | undefined, crop: ImageCrop): string | null {
  return isResizableImageUrl(url) ? `${url}?crop=${crop}` : null;
}

/**
 * An image's subject (issue 41): where its crops centre, as fractions (0 to 1) of its width and height.
 * Null everywhere means the centre: imported and older images, and outside URLs.
 */
export interface FocalPoint {
  x: number;
  y: number;
}

/** The CSS `object-position` that keeps a focal point in frame when `object-fit: cover` crops ("50% 50%" for none). */
export function focalPosition(focus: FocalPoint | null | undefined): string {
  if (!focus) return "50% 50%";
  const percent = (n: number) => `${Math.round(Math.min(Math.max(n, 0), 1) * 1000) / 10}%`;
  return `${percent(focus.x)} ${percent(focus.y)}`;
}
