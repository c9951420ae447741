import { z } from "zod";
import type { FocalPoint } from "~/lib/image-variants";
import { mediaRefSchema } from "./media-publish.schema";

/** What the focal point dialog says when its numbers are not a point of the image. */
export const FOCAL_POINT_INVALID = "The focal point must be two numbers from 0 to 1 (across and down the image), or neither for the centre.";

/** One coordinate as the form sends it: blank (the centre), or a number from 0 to 1. */
const coordinate = z
  .string()
  .trim()
  .refine((v) => v === "" || (/^\d*\.?\d+$/.test(v) && Number(v) >= 0 && Number(v) <= 1), FOCAL_POINT_INVALID)
  .transform((v) => (v === "" ? null : Number(v)));

/**
 * "Set focal point" in the media library (issue 41): an image and its subject's position, as fractions
 * of its width (focalX) and height (focalY); both blank puts it back to the centre. One without the
 * other is refused.
 */
export const focalPointSchema = mediaRefSchema
  .extend({ focalX: coordinate, focalY: coordinate })
  .refine((v) => (v.focalX === null) === (v.focalY === null), { message: FOCAL_POINT_INVALID, path: ["focalY"] })
  .transform(({ bucket, name, focalX, focalY }) => ({
    bucket,
    name,
    focus: focalX === null || focalY === null ? null : ({ x: focalX, y: focalY } satisfies FocalPoint),
  }));
export type FocalPointInput = z.infer<typeof focalPointSchema>;

/** The dialog's own rounding: a point is kept to 2 decimals, as the crop URLs carry it. */
export const roundFocal = (n: number) => Math.round(Math.min(Math.max(n, 0), 1) * 100) / 100;
