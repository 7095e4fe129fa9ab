// What both sending-money forms draw their steps with: the step's focusable title, the review's
// list of what will be sent, and the step's closing alert and buttons.
import type { ReactNode, Ref } from "react";
import { FormAlert, SubmitButton } from "@/components/form/form.tsx";
import { Button } from "@/components/ui/button.tsx";
import { Money } from "@/components/ui/money.tsx";
import { centsInWords } from "@/lib/format/amount-words.ts";

/** A step's title: it takes focus when the step begins (useSendSteps), without an outline. */
export function StepTitle({ ref, children }: { ref: Ref<HTMLSpanElement>; children: ReactNode }) {
  return (
    <span ref={ref} tabIndex={-1} className="focus:outline-none">
      {children}
    </span>
  );
}

/** The review's list: each row a term and what the request says for it. */
function ReviewList({ children }: { children: ReactNode }) {
  return <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-[max-content_1fr]">{children}</dl>;
}

/** One row; for an account given by number, `account` names it when it is one of ours. */
function ReviewRow({
  term,
  account,
  children,
}: {
  term: string;
  account?: { name: string };
  children: ReactNode;
}) {
  return (
    <>
      <dt className="font-medium text-slate-600">{term}</dt>
      <dd>
        {account ? `${account.name} · ` : null}
        {children}
      </dd>
    </>
  );
}

/** The amount in figures and in words. */
function ReviewAmount({ cents, testId }: { cents: number; testId?: string }) {
  return (
    <ReviewRow term="Amount">
      <strong className="text-lg" data-testid={testId}>
        <Money cents={cents} />
      </strong>
      <span className="block text-slate-600">{centsInWords(cents)}</span>
    </ReviewRow>
  );
}

/** The review's list of what will be sent: `<Review.List>` of `<Review.Row>` and `<Review.Amount>`. */
export const Review = { List: ReviewList, Row: ReviewRow, Amount: ReviewAmount };

/**
 * The end of a step: the form's alert, then its submit button; with `onBack` (the review), first
 * the way back to the fields.
 */
export function StepActions({
  onBack,
  busyLabel,
  children,
}: {
  onBack?: () => void;
  busyLabel?: string;
  children: ReactNode;
}) {
  return (
    <>
      <FormAlert />
      <div className={onBack ? "flex flex-wrap gap-2" : undefined}>
        {onBack ? (
          <Button variant="secondary" onClick={onBack}>
            Change details
          </Button>
        ) : null}
        <SubmitButton busyLabel={busyLabel}>{children}</SubmitButton>
      </div>
    </>
  );
}
