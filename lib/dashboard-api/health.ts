// GET /api/health: the dashboard is up and its database answers. Written with zod's tree-shakable
// build, as the other shapes here.
import * as z from "zod/mini";

export const HealthResponse = z.object({
  status: z.literal("ok"),
  /** The start's own name for this dashboard (START_INSTANCE), when it was given one. */
  instance: z.optional(z.string()),
});
export type HealthResponse = z.infer<typeof HealthResponse>;
