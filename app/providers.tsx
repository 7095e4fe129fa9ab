"use client";
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState } from "react";
import { ApiError } from "@/lib/dashboard-api/fetch.ts";

/** A 401 means the session ended (idle timeout, sign-out in another tab): go back to sign-in. */
function redirectToSignIn(error: unknown) {
  if (!(error instanceof ApiError) || !error.isUnauthenticated) return;
  if (typeof window === "undefined" || window.location.pathname.startsWith("/sign-in")) return;
  const back = window.location.pathname + window.location.search;
  window.location.assign(`/sign-in?callbackUrl=${encodeURIComponent(back)}`);
}

// React Query's defaults for the whole dashboard, each with its reason.
function makeQueryClient() {
  return new QueryClient({
    queryCache: new QueryCache({ onError: redirectToSignIn }),
    mutationCache: new MutationCache({ onError: redirectToSignIn }),
    defaultOptions: {
      queries: {
        // Balances move during the day, but re-asking the bank on every mount and tab switch
        // costs its rate limits; 30 s keeps navigation instant and numbers fresh enough.
        staleTime: 30_000,
        // Keep a left page's data for 5 minutes so going back shows it at once.
        gcTime: 5 * 60_000,
        // Never retry auth or permission errors (the session will not change between attempts),
        // nor a not-found or a rejected request; retry other failures twice (a blip). Not a bank
        // that cannot be reached either: the server has already tried again, and the person
        // should read that at once, not after seconds of a loading skeleton.
        retry: (failureCount, error) => {
          if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
          if (error instanceof ApiError && error.code === "bank_unavailable") return false;
          return failureCount < 2;
        },
        retryDelay: (attempt) => Math.min(1000 * 2 ** attempt, 8000),
        // Coming back to the tab after a while refreshes stale balances.
        refetchOnWindowFocus: true,
      },
      mutations: {
        // Money-moving requests are never repeated automatically: the user decides.
        retry: false,
      },
    },
  });
}

export function Providers({ children }: { children: React.ReactNode }) {
  // One client per browser tab, created once (useState), never shared between server requests.
  const [queryClient] = useState(makeQueryClient);
  return (
    // No next-auth SessionProvider: nothing in the browser reads the session through it (the idle
    // guard asks /api/session, sign-out posts to next-auth itself), and the server is the judge
    // of a session, answering 401 when it ends.
    <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
  );
}
