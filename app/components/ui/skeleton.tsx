import type { ComponentProps } from "react";
import { cn } from "~/lib/cn";

/** A placeholder block; `square` leaves its corners square (an image's place in a card). */
export function Skeleton({ className, square = false, ...props }: ComponentProps<"div"> & { square?: boolean }) {
  return <div aria-hidden="true" className={cn("animate-pulse bg-slate-200", !square && "rounded-md", className)} {...props} />;
}
