import type { ButtonHTMLAttributes } from "react";
import { cn } from "@/components/ui/cn.ts";

type Variant = "primary" | "secondary" | "ghost";
type Size = "sm" | "md";

const VARIANTS: Record<Variant, string> = {
  // Disabled keeps white text readable (4.8:1), so no colour on the way between the two states fails.
  primary: "bg-brand-700 text-white hover:bg-brand-800 disabled:bg-slate-500",
  secondary:
    "border border-slate-300 bg-white text-slate-800 hover:bg-slate-50 hover:border-slate-400 disabled:text-slate-500",
  ghost: "text-brand-700 hover:bg-brand-50 disabled:text-slate-500",
};
const SIZES: Record<Size, string> = {
  sm: "h-8 px-3 text-sm gap-1.5",
  md: "h-10 px-4 text-sm gap-2",
};

export function buttonClasses(variant: Variant = "primary", size: Size = "md", className?: string): string {
  return cn(
    "inline-flex items-center justify-center rounded-md font-medium whitespace-nowrap transition-colors disabled:cursor-not-allowed",
    VARIANTS[variant],
    SIZES[size],
    className,
  );
}

export function Button({
  variant = "primary",
  size = "md",
  className,
  type = "button",
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: Variant; size?: Size }) {
  return <button type={type} className={buttonClasses(variant, size, className)} {...props} />;
}
