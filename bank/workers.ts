// Background work of the bank. Each worker registers its stop function with bank.onClose.
import type { Bank } from "./context.ts";

export async function startWorkers(_bank: Bank): Promise<void> {}
