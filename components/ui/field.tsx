"use client";
import {
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
  useId,
} from "react";
import { cn } from "./cn.ts";

const CONTROL =
  "block w-full rounded-md border bg-white px-3 text-sm text-slate-900 placeholder:text-slate-500 " +
  "shadow-xs focus-visible:border-brand-600 disabled:bg-slate-100";

interface FieldProps {
  label: ReactNode;
  /** Shown under the control and tied to it with aria-describedby; sets aria-invalid. */
  error?: string;
  hint?: ReactNode;
  className?: string;
}

function useFieldIds(id?: string) {
  const generated = useId();
  const controlId = id ?? generated;
  return { controlId, hintId: `${controlId}-hint`, errorId: `${controlId}-error` };
}

function describedBy(hint: ReactNode, error: string | undefined, ids: { hintId: string; errorId: string }) {
  return [hint ? ids.hintId : null, error ? ids.errorId : null].filter(Boolean).join(" ") || undefined;
}

function FieldFrame({
  label,
  error,
  hint,
  className,
  ids,
  children,
}: FieldProps & { ids: ReturnType<typeof useFieldIds>; children: ReactNode }) {
  return (
    <div className={cn("flex flex-col gap-1", className)}>
      <label htmlFor={ids.controlId} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      {children}
      {hint ? (
        <p id={ids.hintId} className="text-xs text-slate-600">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={ids.errorId} className="text-xs font-medium text-rose-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function Input({
  label,
  error,
  hint,
  className,
  id,
  ...props
}: FieldProps & Omit<InputHTMLAttributes<HTMLInputElement>, "className">) {
  const ids = useFieldIds(id);
  return (
    <FieldFrame label={label} error={error} hint={hint} className={className} ids={ids}>
      <input
        id={ids.controlId}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(hint, error, ids)}
        className={cn(CONTROL, "h-10", error ? "border-rose-600" : "border-slate-300")}
        {...props}
      />
    </FieldFrame>
  );
}

export function Select({
  label,
  error,
  hint,
  className,
  id,
  children,
  ...props
}: FieldProps & Omit<SelectHTMLAttributes<HTMLSelectElement>, "className">) {
  const ids = useFieldIds(id);
  return (
    <FieldFrame label={label} error={error} hint={hint} className={className} ids={ids}>
      <select
        id={ids.controlId}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(hint, error, ids)}
        className={cn(CONTROL, "h-10 pr-8", error ? "border-rose-600" : "border-slate-300")}
        {...props}
      >
        {children}
      </select>
    </FieldFrame>
  );
}

export function Textarea({
  label,
  error,
  hint,
  className,
  id,
  ...props
}: FieldProps & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "className">) {
  const ids = useFieldIds(id);
  return (
    <FieldFrame label={label} error={error} hint={hint} className={className} ids={ids}>
      <textarea
        id={ids.controlId}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(hint, error, ids)}
        className={cn(CONTROL, "py-2", error ? "border-rose-600" : "border-slate-300")}
        {...props}
      />
    </FieldFrame>
  );
}

/** A checkbox with its label beside it; hint and error below, tied the same way. */
export function Checkbox({
  label,
  error,
  hint,
  className,
  id,
  ...props
}: FieldProps & Omit<InputHTMLAttributes<HTMLInputElement>, "className" | "type">) {
  const ids = useFieldIds(id);
  return (
    <div className={cn("flex flex-col gap-1", className)}>
      <div className="flex items-center gap-2">
        <input
          id={ids.controlId}
          type="checkbox"
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(hint, error, ids)}
          className="size-4 rounded border-slate-400 text-brand-700 focus-visible:outline-2 focus-visible:outline-brand-600"
          {...props}
        />
        <label htmlFor={ids.controlId} className="text-sm font-medium text-slate-700">
          {label}
        </label>
      </div>
      {hint ? (
        <p id={ids.hintId} className="text-xs text-slate-600">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={ids.errorId} className="text-xs font-medium text-rose-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
