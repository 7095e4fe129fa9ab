// Whether two names read alike: Unicode's confusable skeletons (UTS #39) of their letters and
// digits, with case, spacing, punctuation and invisible characters set aside. Nothing else is
// folded: "Store 6" and "Store 8" are two payees, while "Gl\u043ebex" (a Cyrillic o) and "Globex",
// or "G1obex" and "Globex", are one name to anybody reading a release dialog.

import { CONFUSABLE_ROWS } from "./confusables-data.ts";

const fromHex = (hex: string) => String.fromCodePoint(...hex.split(".").map((h) => Number.parseInt(h, 16)));

/** Each confusable letter or digit and the prototype it reads as (UTS #39's table). */
const PROTOTYPE = new Map<string, string>(
  CONFUSABLE_ROWS.flatMap((line) =>
    line.split(" ").map((row) => {
      const [from, to] = row.split(":");
      return [fromHex(from), fromHex(to)] as const;
    }),
  ),
);

/** UTS #39's skeleton: NFD, each character replaced by its prototype, NFD again. */
export function confusableSkeleton(s: string): string {
  let out = "";
  for (const ch of s.normalize("NFD")) out += PROTOTYPE.get(ch) ?? ch;
  return out.normalize("NFD");
}

/** What a reader sees of a name: its letters, digits and their marks, nothing invisible between. */
const READABLE = /[\p{L}\p{N}\p{M}]/u;
const INVISIBLE = /\p{Default_Ignorable_Code_Point}/u;
const readable = (s: string) => [...s].filter((ch) => READABLE.test(ch) && !INVISIBLE.test(ch)).join("");

/**
 * The name as read without regard to case: lower case and skeleton alternate until neither
 * changes it (a prototype may be a capital: the digit 0 reads as O, so as o).
 */
function caselessSkeleton(name: string): string {
  let s = name;
  for (let i = 0; i < 4; i++) {
    const next = confusableSkeleton(s.toLowerCase()).toLowerCase();
    if (next === s) break;
    s = next;
  }
  return readable(s);
}

/** The name's skeletons: the caseless one, and the one with its case kept (I and l read alike). */
export const lookalikeSkeletons = (name: string): [caseless: string, cased: string] => [
  caselessSkeleton(name),
  readable(confusableSkeleton(name)),
];

/** Whether two names read the same to a person (one skeleton, with or without case). */
export const readsAlike = (a: string, b: string): boolean => {
  const [ca, sa] = lookalikeSkeletons(a);
  const [cb, sb] = lookalikeSkeletons(b);
  return (ca.length > 0 && ca === cb) || (sa.length > 0 && sa === sb);
};
