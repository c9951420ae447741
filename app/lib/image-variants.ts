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

/**
 * The URL of one crop of our own image; null for an image the media route cannot crop. With a focal
 * point the crop is cut around it (`&fx=0.72&fy=0.81`, rounded to 2 decimals so the variants a page
 * can ask for stay bounded); without one, around the image's centre of interest.
 */
export function imageCropUrl(url: string | null | undefined, crop: ImageCrop, focus?: FocalPoint | null): string | null {
  if (!isResizableImageUrl(url)) return null;
  return focus ? `${url}?crop=${crop}&fx=${focalParam(focus.x)}&fy=${focalParam(focus.y)}` : `${url}?crop=${crop}`;
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

/** One coordinate of a focal point as a crop URL carries it: clamped to 0..1, at most 2 decimals ("0.7", "1"). */
export function focalParam(n: number): string {
  return String(Math.round(Math.min(Math.max(n, 0), 1) * 100) / 100);
}

const FOCAL_PARAM = /^(?:0(?:\.\d{1,2})?|1(?:\.0{1,2})?)$/;

/**
 * The focal point of a crop request (`fx`, `fy`): both numbers from 0 to 1 with at most 2 decimals.
 * Null when neither is given, or when they break that rule (the media route ignores a bad parameter,
 * as it does a bad `w`, so a bad one never makes a variant of its own).
 */
export function parseFocalParams(fx: unknown, fy: unknown): FocalPoint | null {
  if (typeof fx !== "string" || typeof fy !== "string" || !FOCAL_PARAM.test(fx) || !FOCAL_PARAM.test(fy)) return null;
  return { x: Number(fx), y: Number(fy) };
}

/**
 * How to cut a `target`-sized crop out of a `source`-sized image so that `focus` is as near the
 * crop's centre as the image allows: scale the image to cover the target (never leaving a gap), then
 * take the target's rectangle centred on the focal point, pushed back inside the scaled image's edges.
 */
export function focalCropRect(
  source: { width: number; height: number },
  target: { width: number; height: number },
  focus: FocalPoint,
): { resizeWidth: number; resizeHeight: number; left: number; top: number; width: number; height: number } {
  const scale = Math.max(target.width / source.width, target.height / source.height);
  const resizeWidth = Math.max(target.width, Math.round(source.width * scale));
  const resizeHeight = Math.max(target.height, Math.round(source.height * scale));
  const place = (point: number, scaled: number, size: number) => Math.min(Math.max(Math.round(point * scaled - size / 2), 0), scaled - size);
  return {
    resizeWidth,
    resizeHeight,
    left: place(focus.x, resizeWidth, target.width),
    top: place(focus.y, resizeHeight, target.height),
    width: target.width,
    height: target.height,
  };
}
