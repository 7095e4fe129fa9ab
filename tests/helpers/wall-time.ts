// The instant of a day's wall-clock time in a time zone (the bank's 07:00, say), for moving the
// sandbox clock to it.

/** The instant of `day` at `hh:mm` on the wall clock of `timeZone`. */
export function wallTime(day: string, hhmm: string, timeZone: string): number {
  const guess = Date.parse(`${day}T${hhmm}:00Z`);
  const wall = (t: number) => {
    const p = Object.fromEntries(
      new Intl.DateTimeFormat("en-US", {
        timeZone,
        hourCycle: "h23",
        year: "numeric",
        month: "2-digit",
        day: "2-digit",
        hour: "2-digit",
        minute: "2-digit",
        second: "2-digit",
      })
        .formatToParts(new Date(t))
        .map((x) => [x.type, x.value]),
    );
    return Date.parse(`${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}Z`);
  };
  let t = guess;
  for (let i = 0; i < 3; i++) t = guess - (wall(t) - t);
  return t;
}
