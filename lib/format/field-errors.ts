// A field's error as the person reads it under the control: a sentence that says what to do
// ("Enter an amount", "Shorten to 35 characters or fewer"). The contract's messages stay terse
// ("is required", "must be at most 35 characters") because a 400 names its field beside them;
// here the field's label fills that place.

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** "Amount ($)" → "an amount"; "ABA routing number" keeps its capitals → "an ABA routing number". */
export function labelAsNoun(label: string): string {
  // "From account", "To account": the account to send from or to.
  const side = /^(From|To) (.+)$/i.exec(label.trim());
  if (side) return `${labelAsNoun(side[2])} to send ${side[1].toLowerCase()}`;
  const bare = label
    .replace(/\s*\([^)]*\)\s*/g, " ")
    .trim()
    .replace(/\s+/g, " ");
  if (!bare) return "a value";
  const word = /^[A-Z]{2}/.test(bare) ? bare : bare.charAt(0).toLowerCase() + bare.slice(1);
  return `${/^[aeiouAEIOU]/.test(word) && !/^(one|uni|use)/i.test(word) ? "an" : "a"} ${word}`;
}

export function fieldErrorText(
  message: string,
  label?: string,
  control: "enter" | "choose" = "enter",
): string {
  const m = message.trim();
  // Already a sentence (a capital or a quotation first): as written.
  if (!m || !/^[a-z]/.test(m)) return m;
  const verb = control === "choose" ? "Choose" : "Enter";
  const noun = typeof label === "string" ? labelAsNoun(label) : "a value";
  if (m === "is required") return `${verb} ${noun}`;
  const because = /^is required[:;,]\s*(.+)$/.exec(m);
  if (because) return cap(because[1]);
  const unless = /^is required (unless .+)$/.exec(m);
  if (unless) return `${verb} ${noun} ${unless[1]}`;
  const max = /^must be at most (\d+) characters?$/.exec(m);
  if (max) return `Shorten to ${max[1]} characters or fewer`;
  const what = /^must be (an? .+)$/.exec(m);
  if (what) return `${verb} ${what[1]}`;
  return cap(m);
}
