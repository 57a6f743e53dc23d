import { zonedDay, zonedMinute } from '../domain/zoned-time.js';

/**
 * A minute on the user's wall clock, with the zone's name: "2026-03-06 15:00 (Asia/Shanghai)".
 * Due times are stored in UTC; shown in UTC they told a Shanghai user their 15:00 meeting was at
 * 07:00. An invalid zone (settings validate it, but old rows may not) falls back to UTC.
 */
export function localMinute(at: Date, timeZone: string): string {
  try {
    return `${zonedMinute(at, timeZone)} (${timeZone})`;
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return `${at.toISOString().slice(0, 16).replace('T', ' ')} (UTC)`;
  }
}

/**
 * The day on the user's wall clock: "2026-11-27". Memories, excerpts and episodes are dated by
 * it; on the UTC calendar a Shanghai user's morning was dated the day before. UTC (the default)
 * needs no formatter; an invalid zone falls back to UTC.
 */
export function localDay(at: Date, timeZone: string): string {
  if (timeZone === 'UTC') return at.toISOString().slice(0, 10);
  try {
    return zonedDay(at, timeZone);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return at.toISOString().slice(0, 10);
  }
}
