"use client";
// One Idempotency-Key per form session, kept in sessionStorage with what was submitted, so a
// reload after "Confirm" finds the same key (and the same request) instead of making a new one:
// sending it again can only return the first answer, never move money twice.
import { useCallback, useEffect, useState } from "react";

export interface FormSession<V> {
  key: string;
  /** What was confirmed, when a submission may be in flight or done; null while editing. */
  submitted: V | null;
}

function read<V>(storageKey: string): FormSession<V> | null {
  try {
    const raw = sessionStorage.getItem(storageKey);
    return raw ? (JSON.parse(raw) as FormSession<V>) : null;
  } catch {
    return null;
  }
}

export function useFormSession<V>(storageKey: string) {
  const [session, setSession] = useState<FormSession<V> | null>(null);

  useEffect(() => {
    setSession(read<V>(storageKey) ?? { key: crypto.randomUUID(), submitted: null });
  }, [storageKey]);

  const save = useCallback(
    (next: FormSession<V>) => {
      setSession(next);
      try {
        sessionStorage.setItem(storageKey, JSON.stringify(next));
      } catch {}
    },
    [storageKey],
  );

  /** Before sending: remember the request under the key. */
  const markSubmitted = useCallback(
    (values: V) => {
      const key = session?.key ?? crypto.randomUUID();
      save({ key, submitted: values });
      return key;
    },
    [save, session],
  );

  /**
   * Back to editing. After the bank's definite refusal nothing moved and the bank has the key
   * bound to the refused request, so the changed request takes a new key.
   */
  const markEditing = useCallback(
    (o: { newKey: boolean }) => {
      if (session) save({ key: o.newKey ? crypto.randomUUID() : session.key, submitted: null });
    },
    [save, session],
  );

  /** A new form: a new key. */
  const reset = useCallback(() => {
    save({ key: crypto.randomUUID(), submitted: null });
  }, [save]);

  return { session, markSubmitted, markEditing, reset };
}
