"use client";
// One way to make a form: react-hook-form bound to a zod schema, usually the route handler's own
// (lib/dashboard-api/), so the browser checks exactly what the server checks again. The kit's
// onSubmit gets the parsed values (amounts as cents, text trimmed); the send-money forms send the
// text as typed instead (hooks/use-send-steps.ts), which the route parses with the same schema and
// a reload can restore.
//
// A schema may also be given as a loader (`() => import(...)`): the page then carries no zod in
// its first load, and the schema arrives when the form is first focused, before any check needs
// it. zod's core does not tree-shake in the production bundler, so this keeps ~30 kB (gzip) off
// every form page.
import { zodResolver } from "@hookform/resolvers/zod";
import { useMemo } from "react";
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

/** A schema, or a loader that imports the module holding it. */
export type SchemaSource<S> = S | (() => Promise<S>);

type AnyResolver = Resolver<FieldValues, unknown, FieldValues>;
const preload = new WeakMap<object, () => void>();

/** Starts loading a form's schema (the kit's Form calls it on the form's first focus). */
export function preloadSchema(form: object): void {
  preload.get(form)?.();
}

/** The form's resolver; for a loader, one that waits for the schema, loaded once. */
function resolverFor(schema: SchemaSource<unknown>): { resolver: AnyResolver; load?: () => void } {
  // The resolver's generics cannot follow a schema known only as z.$ZodType.
  if (typeof schema !== "function")
    return { resolver: zodResolver(schema as never) as unknown as AnyResolver };
  let loaded: Promise<AnyResolver> | undefined;
  const get = () => {
    loaded ??= (schema as () => Promise<unknown>)().then(
      (s) => zodResolver(s as never) as unknown as AnyResolver,
      (e: unknown) => {
        // A failed download (the network dropped) is tried again at the next check.
        loaded = undefined;
        throw e;
      },
    );
    return loaded;
  };
  return {
    resolver: async (values, context, options) => (await get())(values, context, options),
    load: () => void get(),
  };
}

export function useZodForm<S extends z.$ZodType<unknown, FieldValues>>(
  schema: SchemaSource<S>,
  opts: {
    defaultValues?: DefaultValues<z.input<S>>;
    /** When a field is first checked: after it loses focus by default, then on every change. */
    mode?: "onTouched" | "onBlur" | "onChange" | "onSubmit" | "all";
  } = {},
): ZodForm<S> {
  const { resolver, load } = useMemo(() => resolverFor(schema), [schema]);
  const form = useForm<z.input<S>, unknown, z.output<S>>({
    resolver: resolver as unknown as Resolver<z.input<S>, unknown, z.output<S>>,
    defaultValues: opts.defaultValues,
    mode: opts.mode ?? "onTouched",
  });
  if (load) preload.set(form, load);
  return form;
}
