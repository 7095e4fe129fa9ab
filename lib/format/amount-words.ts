// An amount in words, as a cheque writes it: the review step says what will move twice, in
// figures and in words, so a slipped digit shows.
const ONES = [
  "zero",
  "one",
  "two",
  "three",
  "four",
  "five",
  "six",
  "seven",
  "eight",
  "nine",
  "ten",
  "eleven",
  "twelve",
  "thirteen",
  "fourteen",
  "fifteen",
  "sixteen",
  "seventeen",
  "eighteen",
  "nineteen",
];
const TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"];
const SCALES = ["", "thousand", "million", "billion", "trillion"];

function belowThousand(n: number): string {
  const parts: string[] = [];
  if (n >= 100) {
    parts.push(`${ONES[Math.floor(n / 100)]} hundred`);
    n %= 100;
  }
  if (n >= 20) {
    parts.push(n % 10 ? `${TENS[Math.floor(n / 10)]}-${ONES[n % 10]}` : TENS[Math.floor(n / 10)]);
  } else if (n > 0) parts.push(ONES[n]);
  return parts.join(" ");
}

function wholeInWords(n: number): string {
  if (n === 0) return "zero";
  const groups: string[] = [];
  for (let i = 0; n > 0; i++, n = Math.floor(n / 1000)) {
    const g = n % 1000;
    if (g) groups.unshift(`${belowThousand(g)}${SCALES[i] ? ` ${SCALES[i]}` : ""}`);
  }
  return groups.join(" ");
}

/** 123456 → "One thousand two hundred thirty-four dollars and 56 cents". */
export function centsInWords(cents: number): string {
  const whole = Math.floor(cents / 100);
  const rest = cents % 100;
  const words = `${wholeInWords(whole)} dollar${whole === 1 ? "" : "s"} and ${String(rest).padStart(2, "0")} cent${rest === 1 ? "" : "s"}`;
  return words.charAt(0).toUpperCase() + words.slice(1);
}
