// Short waiting times for queues: "just now", "4 min", "2 h 05 min", "3 d 4 h".

export function formatWaited(fromIso: string, now: number = Date.now()): string {
  const ms = now - Date.parse(fromIso);
  if (!Number.isFinite(ms) || ms < 60_000) return "just now";
  const min = Math.floor(ms / 60_000);
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 24) return `${h} h ${String(min % 60).padStart(2, "0")} min`;
  return `${Math.floor(h / 24)} d ${h % 24} h`;
}
