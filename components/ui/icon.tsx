import type { ReactNode } from "react";

/**
 * A decorative line icon on a 24-unit grid, drawn in the current text colour and hidden from
 * assistive technology (the control it sits in carries the words).
 */
export function Icon({
  className = "size-4",
  strokeWidth = 1.8,
  round = false,
  children,
}: {
  className?: string;
  strokeWidth?: number;
  /** Rounded line ends and corners. */
  round?: boolean;
  children: ReactNode;
}) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      className={className}
      fill="none"
      stroke="currentColor"
      strokeWidth={strokeWidth}
      strokeLinecap={round ? "round" : undefined}
      strokeLinejoin={round ? "round" : undefined}
    >
      {children}
    </svg>
  );
}
