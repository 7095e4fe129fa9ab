"use client";
import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/**
 * False on the server and while React hydrates, true from then on. A part whose first render
 * depends on browser-only state (the query cache a prefetch may already have filled, the
 * address bar) renders what the server rendered until this turns true, so hydration never
 * meets different text.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
