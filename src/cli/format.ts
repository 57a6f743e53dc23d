import { zonedMinute } from '../domain/zoned-time.js';

/**
 * Plain-text layout for terminals. Chinese characters take two columns, so widths are measured
 * in display columns, not string length, or a table with Chinese content would not line up.
 */

const WIDE: ReadonlyArray<readonly [number, number]> = [
  [0x1100, 0x115f],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe30, 0xfe4f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x1f300, 0x1f64f],
  [0x1f900, 0x1f9ff],
  [0x20000, 0x3fffd],
];

function charWidth(cp: number): number {
  if (cp < 0x1100) return cp < 0x20 ? 0 : 1;
  for (const [lo, hi] of WIDE) if (cp >= lo && cp <= hi) return 2;
  return 1;
}

export function displayWidth(text: string): number {
  let w = 0;
  for (const ch of text) w += charWidth(ch.codePointAt(0)!);
  return w;
}

/** Cuts `text` to at most `width` columns, ending with "…" when cut; newlines become spaces. */
export function truncate(text: string, width: number): string {
  const flat = text.replace(/\s*\n\s*/g, ' ');
  if (displayWidth(flat) <= width) return flat;
  let out = '';
  let w = 0;
  for (const ch of flat) {
    const cw = charWidth(ch.codePointAt(0)!);
    if (w + cw > width - 1) break;
    out += ch;
    w += cw;
  }
  return out + '…';
}

export function pad(text: string, width: number, align: 'left' | 'right' = 'left'): string {
  const gap = ' '.repeat(Math.max(0, width - displayWidth(text)));
  return align === 'left' ? text + gap : gap + text;
}

export interface Column {
  header: string;
  align?: 'left' | 'right';
  /** Cells wider than this are truncated. */
  max?: number;
}

/** Aligned columns separated by two spaces; the last column is not padded. */
export function table(columns: readonly Column[], rows: readonly (readonly string[])[]): string {
  const cells = rows.map((row) => columns.map((c, i) => (c.max ? truncate(row[i] ?? '', c.max) : (row[i] ?? ''))));
  const widths = columns.map((c, i) => Math.max(displayWidth(c.header), ...cells.map((r) => displayWidth(r[i]!))));
  const line = (r: readonly string[]) =>
    r
      .map((cell, i) => (i === r.length - 1 && columns[i]!.align !== 'right' ? cell : pad(cell, widths[i]!, columns[i]!.align)))
      .join('  ')
      .trimEnd();
  return [line(columns.map((c) => c.header)), ...cells.map(line)].join('\n');
}

/** "key  value" lines with the keys padded to one width. */
export function fields(pairs: ReadonlyArray<readonly [string, string | undefined]>): string {
  const present = pairs.filter((p): p is readonly [string, string] => p[1] !== undefined);
  const width = Math.max(0, ...present.map(([k]) => displayWidth(k)));
  return present.map(([k, v]) => `${pad(k, width)}  ${v}`).join('\n');
}

export function num(value: number | undefined, digits = 3): string {
  return value === undefined ? '-' : value.toFixed(digits);
}

const two = (n: number) => String(n).padStart(2, '0');

/** Local wall-clock time, minutes precision: what a person reading a terminal wants. */
export function when(date: Date | string | undefined): string {
  if (date === undefined) return '-';
  const d = typeof date === 'string' ? new Date(date) : date;
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
}

/** "2026-11-23 15:00" in the user's time zone, not the terminal's. */
export function whenIn(date: Date | string, timeZone: string): string {
  return zonedMinute(new Date(date), timeZone);
}

export function heading(text: string, underline = '─'): string {
  return `${text}\n${underline.repeat(Math.min(72, Math.max(3, displayWidth(text))))}`;
}
