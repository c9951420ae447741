import { Slot } from "radix-ui";
import type { ComponentProps } from "react";
import { cn } from "~/lib/cn";

const variants = {
  default: "bg-brand-700 text-white hover:bg-brand-800",
  destructive: "bg-red-700 text-white hover:bg-red-800",
  outline: "border border-slate-300 bg-white text-slate-900 hover:bg-slate-50",
  secondary: "bg-slate-100 text-slate-900 hover:bg-slate-200",
  ghost: "text-slate-800 hover:bg-slate-100",
  link: "text-brand-700 underline-offset-4 hover:underline",
  /** The hero's call to action on the dark band. */
  accent: "bg-amber-400 text-slate-900 hover:bg-amber-300",
  /** An outlined button on the dark band. */
  "outline-light": "border border-white bg-transparent text-white hover:bg-white/10",
  /** A quiet button that deletes (a row's trash icon). */
  "ghost-destructive": "text-red-700 hover:bg-red-50",
} as const;

// Each size sets the text size too: cn() joins classes, it does not let one override another.
const sizes = {
  default: "h-10 px-4 py-2 text-sm",
  sm: "h-9 px-3 text-sm",
  lg: "h-11 px-6 text-base",
  icon: "size-10 text-sm",
  "icon-sm": "size-8 text-sm",
  /** A link-like button inside running text. */
  inline: "h-auto p-0 text-sm",
} as const;

export type ButtonProps = ComponentProps<"button"> & {
  variant?: keyof typeof variants;
  size?: keyof typeof sizes;
  asChild?: boolean;
};

export function Button({ className, variant = "default", size = "default", asChild, ...props }: ButtonProps) {
  const Component = asChild ? Slot.Root : "button";
  return (
    <Component
      className={cn(
        "inline-flex items-center justify-center gap-2 whitespace-nowrap rounded-md font-medium transition-colors disabled:pointer-events-none disabled:opacity-50",
        variants[variant],
        sizes[size],
        className,
      )}
      {...props}
    />
  );
}
