"use client";
// The form kit: a form bound to a zod schema (hooks/use-zod-form.ts) and fields that take their
// value, error and hint from it, wired for screen readers (label, aria-invalid, aria-describedby).
// A server refusal (ApiError from apiFetch) lands where it belongs: each named field gets its
// message, the rest shows in the form's alert. Every form in the dashboard is built from these.
import { type ComponentProps, type JSXElementConstructor, type ReactNode, useEffect, useRef } from "react";
import {
  type FieldValues,
  FormProvider,
  type Path,
  useFormContext,
  useFormState,
  useWatch,
} from "react-hook-form";
import type * as z from "zod/v4/core";
import { Button } from "@/components/ui/button.tsx";
import { cn } from "@/components/ui/cn.ts";
import { Checkbox, Input, Select, Textarea } from "@/components/ui/field.tsx";
import { useHydrated } from "@/hooks/use-hydrated.ts";
import { preloadSchema, type ZodForm } from "@/hooks/use-zod-form.ts";
import { ApiError } from "@/lib/dashboard-api/fetch.ts";

const ROOT = "root.server" as const;

export interface FormProps<S extends z.$ZodType<unknown, FieldValues>> {
  form: ZodForm<S>;
  onSubmit: (values: z.output<S>) => Promise<void> | void;
  /** Server field names (such as the bank's wire names) to this form's field names. */
  fieldNames?: Record<string, string>;
  className?: string;
  children: ReactNode;
  "aria-label"?: string;
  "aria-labelledby"?: string;
}

export function Form<S extends z.$ZodType<unknown, FieldValues>>({
  form,
  onSubmit,
  fieldNames = {},
  className,
  children,
  ...aria
}: FormProps<S>) {
  const submit = form.handleSubmit(async (values) => {
    form.clearErrors(ROOT);
    try {
      await onSubmit(values);
    } catch (e) {
      if (!(e instanceof ApiError)) {
        form.setError(ROOT, { type: "server", message: "Something went wrong. Try again." });
        return;
      }
      const known = new Set(Object.keys(form.getValues() ?? {}));
      const elsewhere: string[] = [];
      let first = true;
      for (const f of e.fields) {
        const name = fieldNames[f.field] ?? f.field;
        if (known.has(name.split(".")[0])) {
          form.setError(
            name as Path<z.input<S>>,
            { type: "server", message: f.message },
            { shouldFocus: first },
          );
          first = false;
        } else elsewhere.push(`${f.field}: ${f.message}`);
      }
      const message = [e.message, ...elsewhere].join(" ");
      form.setError(ROOT, { type: "server", message });
    }
  });
  return (
    <FormProvider {...form}>
      <form
        noValidate
        onSubmit={submit}
        onFocus={() => preloadSchema(form)}
        onPointerDown={() => preloadSchema(form)}
        className={cn("flex flex-col gap-4", className)}
        {...aria}
      >
        {children}
      </form>
    </FormProvider>
  );
}

/** The form's own message: a server refusal in words, announced and focused when it appears. */
export function FormAlert({ className }: { className?: string }) {
  const { errors } = useFormState();
  const message = (errors.root as { server?: { message?: string } } | undefined)?.server?.message;
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (message) ref.current?.focus();
  }, [message]);
  if (!message) return null;
  return (
    <div
      ref={ref}
      role="alert"
      tabIndex={-1}
      className={cn(
        "rounded-md border border-rose-200 bg-rose-50 px-3 py-2 text-sm text-rose-800 focus:outline-none",
        className,
      )}
    >
      {message}
    </div>
  );
}

/**
 * Submits the form; says it is busy (and takes no second press) while the submit runs. It waits
 * for the page's scripts: a press before them would post the fields in the address unchecked.
 */
export function SubmitButton({
  children,
  busyLabel = "Working…",
  disabled,
  ...props
}: Omit<ComponentProps<typeof Button>, "type"> & { busyLabel?: string }) {
  const { isSubmitting } = useFormState();
  const hydrated = useHydrated();
  return (
    <Button
      type="submit"
      aria-busy={isSubmitting || undefined}
      disabled={isSubmitting || !hydrated || disabled}
      {...props}
    >
      {isSubmitting ? busyLabel : children}
    </Button>
  );
}

function useFieldError(name: string): string | undefined {
  const { errors } = useFormState({ name });
  let node: unknown = errors;
  for (const part of name.split(".")) node = (node as Record<string, unknown> | undefined)?.[part];
  return (node as { message?: string } | undefined)?.message;
}

type FormControl = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

/** The controls already met: only the first meeting can find what was typed before the form ran. */
const met = new WeakSet<Element>();

/**
 * What a person typed, chose or ticked in the server-drawn control before the page's scripts
 * ran, or undefined. The server draws each control empty (no value attribute), so a value that
 * differs from the control's own default is the person's.
 */
function typedBeforeHydration(el: FormControl): string | boolean | undefined {
  if (el instanceof HTMLInputElement && el.type === "checkbox")
    return el.checked !== el.defaultChecked ? el.checked : undefined;
  if (el instanceof HTMLInputElement && el.type === "radio")
    return el.checked && !el.defaultChecked ? el.value : undefined;
  if (el instanceof HTMLSelectElement) {
    const drawn = [...el.options].find((o) => o.defaultSelected) ?? el.options[0];
    return drawn && el.value !== drawn.value ? el.value : undefined;
  }
  return el.value !== el.defaultValue ? el.value : undefined;
}

/**
 * Registers the named field and reads its error: what every bound control needs. What was typed
 * into the control before the page hydrated stays (the form would otherwise write its default
 * over it the moment it takes the control over).
 */
function useBound(name: string) {
  const { register, setValue } = useFormContext();
  const bound = register(name);
  const ref = (el: FormControl | null) => {
    const typed = el && !met.has(el) ? typedBeforeHydration(el) : undefined;
    if (el) met.add(el);
    bound.ref(el);
    if (typed !== undefined) setValue(name, typed, { shouldDirty: true });
  };
  return { ...bound, ref, error: useFieldError(name) };
}

// biome-ignore lint/suspicious/noExplicitAny: any component whose props are taken apart below
type Bound<C extends JSXElementConstructor<any>> = { name: string } & Omit<
  ComponentProps<C>,
  "name" | "error" | "value" | "onChange" | "onBlur"
>;

/**
 * A hint that counts the characters of a limited field as one types, instead of the browser
 * cutting the text silently at maxLength; over the limit it says by how much (the schema makes it
 * an error on submit).
 */
export function CharacterCount({ name, max, children }: { name: string; max: number; children?: ReactNode }) {
  const value = String(useWatch({ name }) ?? "");
  const over = value.length - max;
  return (
    <>
      {children}
      <span className={cn("block", over > 0 && "font-medium text-rose-700")} data-char-count>
        {over > 0
          ? `${value.length} of ${max} characters: shorten by ${over}; the bank takes at most ${max}.`
          : value.length
            ? `${value.length} of ${max} characters`
            : `Up to ${max} characters`}
      </span>
    </>
  );
}

/** A text field with a limit: its count in the hint (CharacterCount). */
export function CountedTextField({
  name,
  max,
  hint,
  ...props
}: Omit<Bound<typeof Input>, "max" | "maxLength" | "hint"> & { max: number; hint?: ReactNode }) {
  return (
    <TextField
      name={name}
      autoComplete="off"
      hint={
        <CharacterCount name={name} max={max}>
          {hint ? <span className="block">{hint}</span> : null}
        </CharacterCount>
      }
      {...props}
    />
  );
}

export function TextField({ name, ...props }: Bound<typeof Input>) {
  return <Input {...props} {...useBound(name)} />;
}

/** Dollars as a person writes them ("1,250.00"); the form's schema reads them (readTypedDollars, lib/form-rules/typed-dollars.ts). */
export function MoneyField({ name, ...props }: Bound<typeof Input>) {
  return <Input inputMode="decimal" autoComplete="off" placeholder="0.00" {...props} {...useBound(name)} />;
}

export function SelectField({ name, ...props }: Bound<typeof Select>) {
  return <Select {...props} {...useBound(name)} />;
}

export function TextareaField({ name, ...props }: Bound<typeof Textarea>) {
  return <Textarea {...props} {...useBound(name)} />;
}

export function CheckboxField({ name, ...props }: Bound<typeof Checkbox>) {
  return <Checkbox {...props} {...useBound(name)} />;
}

/** Optional fields behind a summary line, spanning the form's two columns and laid out in two again. */
export function MoreFields({ summary, children }: { summary: string; children: ReactNode }) {
  return (
    <details className="md:col-span-2">
      <summary className="cursor-pointer text-sm font-medium text-brand-700">{summary}</summary>
      <div className="mt-3 grid gap-4 md:grid-cols-2">{children}</div>
    </details>
  );
}
