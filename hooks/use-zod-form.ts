"use client";
// One way to make a form: react-hook-form bound to a zod schema (classic or zod/mini). The schema
// is the route's (lib/dashboard-api/), or its zod/mini mirror built from the same contract table
// (lib/forms/), so the browser checks what the server checks again; values reach onSubmit already parsed (amounts as cents, text trimmed).
import {
  type DefaultValues,
  type FieldErrors,
  type FieldValues,
  get,
  type Resolver,
  set,
  type UseFormReturn,
  useForm,
} from "react-hook-form";
import type * as z from "zod/v4/core";

export type ZodForm<S extends z.$ZodType<unknown, FieldValues>> = UseFormReturn<
  z.input<S>,
  unknown,
  z.output<S>
>;

interface Parsed {
  success: boolean;
  data?: unknown;
  error?: { issues: { path: PropertyKey[]; message: string; code: string }[] };
}

/**
 * The schema as react-hook-form's resolver: the parsed values, or the first message of each
 * field at its (nested) name. Both zod builds parse through the same core, so one small function
 * serves them; the browser need not load a resolver library for it.
 */
export function schemaResolver<S extends z.$ZodType<unknown, FieldValues>>(
  schema: S,
): Resolver<z.input<S>, unknown, z.output<S>> {
  const parse = (schema as unknown as { safeParseAsync(v: unknown): Promise<Parsed> }).safeParseAsync.bind(
    schema,
  );
  return async (values) => {
    const r = await parse(values);
    if (r.success) return { values: r.data as z.output<S>, errors: {} };
    const errors: FieldErrors<z.input<S>> = {};
    for (const issue of r.error?.issues ?? []) {
      const name = issue.path.map(String).join(".") || "root.schema";
      if (!get(errors, name)) set(errors, name, { type: issue.code, message: issue.message });
    }
    return { values: {}, errors };
  };
}

export function useZodForm<S extends z.$ZodType<unknown, FieldValues>>(
  schema: S,
  opts: {
    defaultValues?: DefaultValues<z.input<S>>;
    /** When a field is first checked: after it loses focus by default, then on every change. */
    mode?: "onTouched" | "onBlur" | "onChange" | "onSubmit" | "all";
  } = {},
): ZodForm<S> {
  return useForm<z.input<S>, unknown, z.output<S>>({
    resolver: schemaResolver(schema),
    defaultValues: opts.defaultValues,
    mode: opts.mode ?? "onTouched",
  });
}
