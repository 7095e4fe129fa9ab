import type { ReactNode } from "react";

/** A region named by its own heading (aria-labelledby), so assistive technology lists it by that name. */
export function Section({
  id,
  title,
  className,
  headingClassName,
  children,
}: {
  id: string;
  title: ReactNode;
  className?: string;
  headingClassName?: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className={className}>
      <h2 id={id} className={headingClassName}>
        {title}
      </h2>
      {children}
    </section>
  );
}

/** A section in a white panel of its own, as on the profile and the users page. */
export function Panel({ id, title, children }: { id: string; title: ReactNode; children: ReactNode }) {
  return (
    <Section
      id={id}
      title={title}
      className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm"
      headingClassName="text-lg font-semibold text-slate-900"
    >
      {children}
    </Section>
  );
}
