"use client";
// An action on one item that asks first (delete this, release that): the item waiting for a yes,
// the mutation that acts on it, and the confirmation dialog's state. Asking clears the last
// failure; success closes the question before anything else is said.
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { failureMessage } from "@/lib/dashboard-api/fetch.ts";

export function useConfirmedAction<T, R = unknown>(options: {
  mutationFn: (item: T) => Promise<R>;
  onSuccess?: (result: R, item: T) => void;
  onSettled?: () => unknown;
  /** Said instead of a failure that is not the API's answer; without it, the error's own message. */
  failure?: string;
}) {
  const [item, setItem] = useState<T | null>(null);
  const mutation = useMutation({
    mutationFn: options.mutationFn,
    onSuccess: (result: R, asked: T) => {
      setItem(null);
      options.onSuccess?.(result, asked);
    },
    onSettled: options.onSettled,
  });
  const { error } = mutation;
  return {
    item,
    mutation,
    ask: (asked: T) => {
      mutation.reset();
      setItem(asked);
    },
    /** What ConfirmDialog needs of it: whether it is open, how it closes, the failure, the action. */
    dialog: {
      open: item !== null,
      onClose: () => setItem(null),
      error: error && (options.failure ? failureMessage(error, options.failure) : error.message),
      pending: mutation.isPending,
      onAction: () => {
        if (item !== null) mutation.mutate(item);
      },
    },
  };
}
