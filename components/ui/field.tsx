"use client";
// Form controls with their label, hint and error tied together for screen readers: the label
// names the control, the hint and the error describe it (aria-describedby), an error marks it
// invalid (aria-invalid). components/form/form.tsx binds them to a form.
import {
  type InputHTMLAttributes,
  type ReactElement,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
  useId,
} from "react";
import { cn } from "@/components/ui/cn.ts";
import { fieldErrorText } from "@/lib/format/field-errors.ts";

const CONTROL =
  "block w-full rounded-md border bg-white px-3 text-sm text-slate-900 placeholder:text-slate-500 " +
  "shadow-xs focus-visible:border-brand-600 disabled:bg-slate-100";

interface FieldProps {
  label: ReactNode;
  /** Shown under the control and tied to it with aria-describedby; sets aria-invalid. */
  error?: string;
  hint?: ReactNode;
  className?: string;
  id?: string;
}

/** The ids and attributes that tie one control to its label, hint and error. */
function useField({ error: raw, hint, id, label }: FieldProps, control: "enter" | "choose" = "enter") {
  // The contract's terse message ("is required") becomes what to do ("Enter an amount").
  const error = raw ? fieldErrorText(raw, typeof label === "string" ? label : undefined, control) : raw;
  const generated = useId();
  const controlId = id ?? generated;
  const hintId = `${controlId}-hint`;
  const errorId = `${controlId}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(" ") || undefined;
  return {
    controlId,
    messages: (
      <>
        {hint ? (
          <p id={hintId} className="text-xs text-slate-600">
            {hint}
          </p>
        ) : null}
        {error ? (
          <p id={errorId} className="text-xs font-medium text-rose-700">
            {error}
          </p>
        ) : null}
      </>
    ),
    control: {
      id: controlId,
      "aria-invalid": error ? true : undefined,
      "aria-describedby": describedBy,
    },
    border: error ? "border-rose-600" : "border-slate-300",
  };
}

/** Splits a control's props into its field (label, hint, error, frame class) and the rest. */
function useFieldProps<P extends FieldProps>(
  { label, error, hint, className, id, ...rest }: P,
  control: "enter" | "choose" = "enter",
) {
  return { field: useField({ label, error, hint, id }, control), label, className, rest };
}

/** Label above, control, then hint and error: the frame of every text-like control. */
function Stacked({
  field,
  label,
  className,
  children,
}: {
  field: ReturnType<typeof useField>;
  label: ReactNode;
  className?: string;
  children: ReactElement;
}) {
  return (
    <div className={cn("flex flex-col gap-1", className)}>
      <label htmlFor={field.controlId} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      {children}
      {field.messages}
    </div>
  );
}

export function Input(props: FieldProps & Omit<InputHTMLAttributes<HTMLInputElement>, "className">) {
  const { field: f, rest, ...frame } = useFieldProps(props);
  return (
    <Stacked field={f} {...frame}>
      <input {...f.control} className={cn(CONTROL, "h-10", f.border)} {...rest} />
    </Stacked>
  );
}

export function Select(props: FieldProps & Omit<SelectHTMLAttributes<HTMLSelectElement>, "className">) {
  const { field: f, rest, ...frame } = useFieldProps(props, "choose");
  return (
    <Stacked field={f} {...frame}>
      <select {...f.control} className={cn(CONTROL, "h-10 pr-8", f.border)} {...rest} />
    </Stacked>
  );
}

export function Textarea(props: FieldProps & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "className">) {
  const { field: f, rest, ...frame } = useFieldProps(props);
  return (
    <Stacked field={f} {...frame}>
      <textarea {...f.control} className={cn(CONTROL, "py-2", f.border)} {...rest} />
    </Stacked>
  );
}

/** A checkbox with its label beside it; hint and error below, tied the same way. */
export function Checkbox(
  props: FieldProps & Omit<InputHTMLAttributes<HTMLInputElement>, "className" | "type">,
) {
  const { field: f, rest, label, className } = useFieldProps(props);
  return (
    <div className={cn("flex flex-col gap-1", className)}>
      <div className="flex items-center gap-2">
        <input
          {...f.control}
          type="checkbox"
          className="size-4 rounded border-slate-400 text-brand-700 focus-visible:outline-2 focus-visible:outline-brand-600"
          {...rest}
        />
        <label htmlFor={f.controlId} className="text-sm font-medium text-slate-700">
          {label}
        </label>
      </div>
      {f.messages}
    </div>
  );
}
