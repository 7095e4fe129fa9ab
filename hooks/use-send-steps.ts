"use client";
// The steps of a form that sends money: edit, review, done. Around the form session
// (use-form-session.ts): its Idempotency-Key goes into the form while editing; a request confirmed
// before a reload comes back for review; confirming remembers the request under its key before
// sending it. Each new step moves focus to its heading.
import { useEffect, useRef, useState } from "react";
import { ApiError } from "@/lib/dashboard-api/fetch.ts";
import { useFormSession } from "./use-form-session.ts";

export type SendStep = "edit" | "review" | "done";

/** What the steps use of the form (react-hook-form's). */
interface StepsForm<V> {
  getValues: () => V;
  reset: (values: V) => void;
  setValue: (name: "idempotencyKey", value: string) => void;
}

export function useSendSteps<V extends { idempotencyKey: string }>(
  storageKey: string,
  form: StepsForm<V>,
  options: {
    /** False: this form is not a session of its own (a stored draft being corrected). */
    resume?: boolean;
    /** A request confirmed before a reload is back for review. */
    onResumed?: () => void;
  } = {},
) {
  const formSession = useFormSession<V>(storageKey);
  const { markSubmitted, markEditing, reset } = formSession;
  const session = options.resume === false ? null : formSession.session;
  const [stage, setStage] = useState<SendStep>("edit");
  const resumed = useRef(false);
  const headingRef = useRef<HTMLSpanElement>(null);
  const { onResumed } = options;

  useEffect(() => {
    // Only the first read of the session resumes; later changes are this page's own.
    if (!session || resumed.current) return;
    resumed.current = true;
    form.setValue("idempotencyKey", session.key);
    if (session.submitted) {
      form.reset({ ...session.submitted, idempotencyKey: session.key });
      setStage("review");
      onResumed?.();
    }
  }, [session, form, onResumed]);

  // A new key (after a refusal, or a new form) goes into the form when editing starts.
  useEffect(() => {
    if (session && stage === "edit") form.setValue("idempotencyKey", session.key);
  }, [session, stage, form]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: each new step moves focus to its heading
  useEffect(() => {
    headingRef.current?.focus();
  }, [stage]);

  return {
    stage,
    setStage,
    headingRef,
    markEditing,
    /** Back from the review to the fields, under the same key: nothing was sent. */
    edit: () => {
      markEditing({ newKey: false });
      setStage("edit");
    },
    /**
     * Sends the confirmed request, remembered under the session's key first. `answered` takes the
     * answer before the done step shows it; the next form is then a new session (a reload shows an
     * empty form). A refusal with one of the `refused` statuses goes back to the fields, under a
     * new key for the changed request unless the request was malformed (400).
     */
    confirm: async <R>(send: (values: V) => Promise<R>, refused: number[], answered: (r: R) => void) => {
      const raw = form.getValues();
      markSubmitted(raw);
      try {
        const r = await send(raw);
        answered(r);
        setStage("done");
        reset();
      } catch (e) {
        if (e instanceof ApiError && refused.includes(e.status)) {
          markEditing({ newKey: e.status !== 400 });
          setStage("edit");
        }
        throw e;
      }
    },
    /** A new form: a new session, the fields as `empty`. */
    startOver: (empty: V) => {
      reset();
      form.reset(empty);
      setStage("edit");
    },
  };
}
