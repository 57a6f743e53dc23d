/**
 * A minute on the user's wall clock, with the zone's name: "2026-03-06 15:00 (Asia/Shanghai)".
 * Due times are stored in UTC; shown in UTC they told a Shanghai user their 15:00 meeting was at
 * 07:00. An invalid zone (settings validate it, but old rows may not) falls back to UTC.
 */
export function localMinute(at: Date, timeZone: string): string {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(at);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return `${at.toISOString().slice(0, 16).replace('T', ' ')} (UTC)`;
  }
  const get = (type: Intl.DateTimeFormatPartTypes): string => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour')}:${get('minute')} (${timeZone})`;
}
