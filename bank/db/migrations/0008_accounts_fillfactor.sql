-- Room on each page of accounts for the next version of its rows: a balance change then stays on
-- its page (a HOT update, no index entry) and the old version is pruned as the page is next read,
-- so the table does not bloat between vacuums, which on the embedded database hold its one
-- connection.
ALTER TABLE "accounts" SET (fillfactor = 70);
