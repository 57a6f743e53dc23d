/** A minute on a wall clock, with its day of the week (0 = Sunday). */
export interface ZonedTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  weekday: number;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
/**
 * One formatter per time zone: building an Intl.DateTimeFormat costs far more than using one
 * (it was a tenth of a recall's time when date matching built two per query).
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', weekday: 'short',
    });
    // Zones are few (settings validate them); the bound only guards against a caller looping over junk.
    if (formatters.size >= 512) formatters.clear();
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The wall-clock time of `at` in an IANA zone. Throws RangeError for an unknown zone. */
export function zonedTime(at: Date, timeZone: string): ZonedTime {
  const parts = formatterFor(timeZone).formatToParts(at);
  const get = (type: Intl.DateTimeFormatPartTypes): string => parts.find((p) => p.type === type)?.value ?? '0';
  return { year: +get('year'), month: +get('month'), day: +get('day'), hour: +get('hour') % 24, minute: +get('minute'), weekday: WEEKDAYS.indexOf(get('weekday')) };
}

const two = (n: number): string => String(n).padStart(2, '0');

/** "2026-11-23" on the wall clock of `timeZone`. Throws RangeError for an unknown zone. */
export function zonedDay(at: Date, timeZone: string): string {
  const w = zonedTime(at, timeZone);
  return `${w.year}-${two(w.month)}-${two(w.day)}`;
}

/** "2026-11-23 15:00" on the wall clock of `timeZone`. Throws RangeError for an unknown zone. */
export function zonedMinute(at: Date, timeZone: string): string {
  const w = zonedTime(at, timeZone);
  return `${w.year}-${two(w.month)}-${two(w.day)} ${two(w.hour)}:${two(w.minute)}`;
}

/** Days from the Monday of its week back to a day (0 on a Monday, 6 on a Sunday). */
export const sinceMonday = (w: { weekday: number }): number => (w.weekday + 6) % 7;

/** Minutes `timeZone` is ahead of UTC at `at`. */
function offsetMinutes(at: Date, timeZone: string): number {
  const minute = Math.floor(at.getTime() / 60_000) * 60_000;
  const w = zonedTime(new Date(minute), timeZone);
  return Math.round((Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute) - minute) / 60_000);
}

/**
 * The instant a wall-clock minute in `timeZone` stands for, the zone's offset taken at that date
 * (so 08:00 stays 08:00 across a DST change). Overflowing fields are normalised as Date.UTC does
 * (day 32 is the next month's 1st). Throws RangeError for an unknown zone.
 */
export function zonedInstant(w: Omit<ZonedTime, 'weekday'>, timeZone: string): Date {
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute);
  let instant = asUtc - offsetMinutes(new Date(asUtc), timeZone) * 60_000;
  instant = asUtc - offsetMinutes(new Date(instant), timeZone) * 60_000;
  return new Date(instant);
}
