// Lengths of time for people, exact to the second: a setting of 40 s reads "40 seconds", never a
// rounded "1 minute".

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
