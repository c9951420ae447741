/** Widths of the resized WebP variants the media route makes on demand (`?w=`). */
export const IMAGE_VARIANT_WIDTHS = [320, 480, 640, 960, 1280, 1600] as const;

/** A `srcset` for one of our stored images (none for outside URLs or GIFs, which stay as they are). */
export function imageSrcSet(url: string | null | undefined, widths: readonly number[]): string | undefined {
  if (!url || !url.startsWith("/media/images/") || /\.gif$/i.test(url)) return undefined;
  return widths.map((w) => `${url}?w=${w} ${w}w`).join(", ");
}
