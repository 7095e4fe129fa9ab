// The history table's column widths and row height, shared by the table and its loading rows so
// they always line up.
export const HISTORY_COLUMN_WIDTHS = ["8rem", "auto", "6.5rem", "10rem", "10.5rem"] as const;

/** Fixed row height (px): the virtualiser never needs to measure, which keeps 5,000 rows smooth. */
export const HISTORY_ROW_HEIGHT = 56;
