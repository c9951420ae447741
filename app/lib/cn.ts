import { clsx, type ClassValue } from "clsx";

/**
 * Joins class names. It does not resolve Tailwind conflicts (tailwind-merge did, at 8 KB and about
 * 30 ms of a phone's hydration): a component's caller never sets a property the component's own
 * classes set; it picks a variant, or the component takes the choice as a prop.
 * `app/components/ui/class-conflicts.test.ts` checks every call and every ui component's use against tailwind-merge.
 */
export function cn(...inputs: ClassValue[]) {
  return clsx(inputs);
}
