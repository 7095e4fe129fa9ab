// The history table's columns and row height, shared by the table and its loading rows so they
// always line up. On a phone each row stacks: the date and type under the description, the balance
// after under the amount, so the two columns left fit a 390 px screen with the description readable.
export const HISTORY_COLUMNS = [
  { label: "Date", width: "8rem", right: false, phone: false },
  { label: "Description", width: "auto", right: false, phone: true },
  { label: "Type", width: "6.5rem", right: false, phone: false },
  { label: "Amount", width: "10rem", right: true, phone: true },
  { label: "Balance after", width: "10.5rem", right: true, phone: false },
] as const;

/**
 * Phone widths: the amount's, and none for the columns a phone hides (a fixed table would still
 * share the width among "auto" columns it does not draw); Description takes the rest.
 */
export const HISTORY_PHONE_WIDTHS: Record<string, string> = {
  Date: "0",
  Type: "0",
  Amount: "10rem",
  "Balance after": "0",
};

/** Hidden below the small breakpoint: the cells of a column a phone does without. */
export { DESKTOP_ONLY } from "@/components/ui/table.tsx";

/** Fixed row height (px): the virtualiser never needs to measure, which keeps 5,000 rows smooth. */
export const HISTORY_ROW_HEIGHT = 56;
