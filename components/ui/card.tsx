import type { HTMLAttributes, ReactNode } from "react";
import { cn } from "@/components/ui/cn.ts";

export function Card({ className, ...props }: HTMLAttributes<HTMLElement>) {
  return (
    <section className={cn("rounded-xl border border-slate-200 bg-white shadow-sm", className)} {...props} />
  );
}

export function CardHeader({
  title,
  description,
  action,
  id,
  level = 2,
}: {
  title: ReactNode;
  description?: ReactNode;
  action?: ReactNode;
  id?: string;
  level?: 2 | 3;
}) {
  const Heading = level === 2 ? "h2" : "h3";
  return (
    <div className="flex flex-wrap items-start justify-between gap-3 border-b border-slate-100 px-5 py-4">
      <div className="min-w-0">
        <Heading id={id} className="text-base font-semibold text-slate-900">
          {title}
        </Heading>
        {description ? <p className="mt-0.5 text-sm text-slate-600">{description}</p> : null}
      </div>
      {action}
    </div>
  );
}

export function CardBody({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return <div className={cn("px-5 py-4", className)} {...props} />;
}

/** A card named by its heading: the header's heading carries `id`, and the card's region is labelled by it. */
export function TitledCard({
  id,
  title,
  description,
  action,
  level,
  children,
  ...props
}: {
  id: string;
  title: ReactNode;
  description?: ReactNode;
  action?: ReactNode;
  level?: 2 | 3;
} & Omit<HTMLAttributes<HTMLElement>, "id" | "title">) {
  return (
    <Card aria-labelledby={id} {...props}>
      <CardHeader id={id} title={title} description={description} action={action} level={level} />
      {children}
    </Card>
  );
}
