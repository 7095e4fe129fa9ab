import { Badge } from "@/components/ui/badge.tsx";

/** DDA is the ordinary demand-deposit account; SEN accounts are on the bank's instant exchange network. */
export function AccountTypeBadge({ type }: { type: "DDA" | "SEN" }) {
  return type === "SEN" ? (
    <Badge tone="brand">
      <svg aria-hidden="true" viewBox="0 0 16 16" className="size-3" fill="currentColor">
        <path d="M9 1 3 9h4l-1 6 6-8H8l1-6Z" />
      </svg>
      SEN network
    </Badge>
  ) : (
    <Badge tone="neutral">DDA checking</Badge>
  );
}
