// Lengths of time for people. A setting reads exactly, to the second ("40 seconds", never a
// rounded "1 minute"); waiting times in queues read short ("just now", "4 min", "2 h 05 min").

const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** "40 seconds", "1 minute", "1 minute 30 seconds", "2 hours 5 minutes". */
export function formatDuration(totalSeconds: number): string {
  const s = Math.max(0, Math.round(totalSeconds));
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const seconds = s % 60;
  const parts = [
    hours ? unit(hours, "hour") : "",
    minutes ? unit(minutes, "minute") : "",
    seconds || s === 0 ? unit(seconds, "second") : "",
  ].filter(Boolean);
  return parts.join(" ");
}

export function formatWaited(fromIso: string, now: number = Date.now()): string {
  const ms = now - Date.parse(fromIso);
  if (!Number.isFinite(ms) || ms < 60_000) return "just now";
  const min = Math.floor(ms / 60_000);
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 24) return `${h} h ${String(min % 60).padStart(2, "0")} min`;
  return `${Math.floor(h / 24)} d ${h % 24} h`;
}
