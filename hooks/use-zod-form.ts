"use client";
// One way to make a form: react-hook-form bound to a zod schema. The schema is the contract's
// (lib/bank-api/) or the route's (lib/dashboard-api/), so the browser checks exactly what the
// server checks again; values reach onSubmit already parsed (amounts as cents, text trimmed).
import { zodResolver } from "@hookform/resolvers/zod";
import {
  type DefaultValues,
  type FieldValues,
  type Resolver,
  type UseFormReturn,
  useForm,
} from "react-hook-form";
import type * as z from "zod/v4/core";

export type ZodForm<S extends z.$ZodType<unknown, FieldValues>> = UseFormReturn<
  z.input<S>,
  unknown,
  z.output<S>
>;

export function useZodForm<S extends z.$ZodType<unknown, FieldValues>>(
  schema: S,
  opts: {
    defaultValues?: DefaultValues<z.input<S>>;
    /** When a field is first checked: after it loses focus by default, then on every change. */
    mode?: "onTouched" | "onBlur" | "onChange" | "onSubmit" | "all";
  } = {},
): ZodForm<S> {
  return useForm<z.input<S>, unknown, z.output<S>>({
    // The resolver's generics cannot follow a schema known only as z.$ZodType.
    resolver: zodResolver(schema as never) as unknown as Resolver<z.input<S>, unknown, z.output<S>>,
    defaultValues: opts.defaultValues,
    mode: opts.mode ?? "onTouched",
  });
}
