// Whether two names read alike: the skeleton a name folds to when case, spacing, punctuation,
// accents, compatibility forms and the common cross-script look-alikes (Cyrillic and Greek letters
// that look Latin, digits that look like letters) are set aside, after Unicode's confusable
// skeletons (UTS #39) for the letters a payee name holds. Two payees with one skeleton would be
// told apart by nobody reading a release dialog.

/** Letters and digits drawn like another: each maps to the Latin letter it is read as. */
const LOOKS_LIKE: Record<string, string> = {
  // Cyrillic
  а: "a",
  в: "b",
  е: "e",
  ё: "e",
  з: "3",
  к: "k",
  м: "m",
  н: "h",
  о: "o",
  р: "p",
  с: "c",
  т: "t",
  у: "y",
  х: "x",
  ѕ: "s",
  і: "l",
  ї: "l",
  ј: "j",
  ԛ: "q",
  ԝ: "w",
  һ: "h",
  ɡ: "g",
  ӏ: "l",
  // Greek
  α: "a",
  β: "b",
  ε: "e",
  η: "n",
  ι: "l",
  κ: "k",
  ν: "v",
  ο: "o",
  ρ: "p",
  τ: "t",
  υ: "u",
  χ: "x",
  ω: "w",
  ϲ: "c",
  ϳ: "j",
  // Latin look-alikes and digits
  ı: "l",
  ł: "l",
  ø: "o",
  đ: "d",
  ħ: "h",
  ŀ: "l",
  "0": "o",
  "1": "l",
  i: "l",
  "5": "s",
  "8": "b",
  "3": "e",
  "6": "b",
  "9": "g",
};

/**
 * The name's skeleton: NFKD without marks, lower case, look-alikes mapped, and everything but
 * letters and digits (spaces of every kind, punctuation, invisible characters) dropped.
 */
export function lookalikeSkeleton(name: string): string {
  const plain = name.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();
  let out = "";
  for (const ch of plain) {
    const mapped = LOOKS_LIKE[ch] ?? ch;
    if (/[\p{L}\p{N}]/u.test(mapped)) out += mapped;
  }
  return out.replace(/rn/g, "m").replace(/vv/g, "w").replace(/cl/g, "d");
}

/** Whether two names read the same to a person (one skeleton). */
export const readsAlike = (a: string, b: string): boolean => {
  const sa = lookalikeSkeleton(a);
  return sa.length > 0 && sa === lookalikeSkeleton(b);
};
