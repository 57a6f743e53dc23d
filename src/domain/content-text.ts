import { z } from 'zod';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** No lone surrogates: they cannot be stored or indexed faithfully. */
export const isWellFormed = (s: string): boolean => !LONE_SURROGATE.test(s);

/**
 * Control characters (Unicode Cc) but tab, line feed and carriage return: C0, DEL and C1. None is
 * part of anyone's words: a NUL reached the context block as \u0000, an ESC or a CSI (U+009B)
 * starts a terminal escape in `engram show`. Format characters (bidi marks and isolates, ZWJ, ZWSP)
 * are not refused: names in Arabic or Hebrew and emoji sequences need them, and the page shows
 * the ones that could mislead as markers (StoredText).
 */
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

/** `s` without its control characters (tab, line feed and carriage return kept): what a model copied out of a message, made the words a memory may hold. */
export function withoutControls(s: string): string {
  return s.replace(new RegExp(CONTROL.source, 'g'), '');
}

/** The first control character in `s` ("U+0000") and where it is (1-based, in characters as a person counts them), or null. */
export function firstControl(s: string): { code: string; position: number } | null {
  const m = CONTROL.exec(s);
  if (!m) return null;
  return { code: `U+${m[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`, position: [...s.slice(0, m.index)].length + 1 };
}

/** `s` quoted for an error message, every control character (tab and newline too) as \uXXXX: safe in a terminal. */
export function quoted(s: string): string {
  return `"${s.replace(/[\u0000-\u001F\u007F-\u009F"\\]/g, (c) => (c === '"' || c === '\\' ? `\\${c}` : `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`))}"`;
}

/** Why `s` may not be the words of a memory, a todo or a learning, or null. */
export function contentTextProblem(s: string): string | null {
  if (!isWellFormed(s)) return 'must be well-formed Unicode (no lone surrogates)';
  const at = firstControl(s);
  return at ? `must not contain control characters: ${at.code} at character ${at.position} (tab, line feed and carriage return are kept)` : null;
}

/**
 * The words of a memory, a todo or a learning, as every door takes them (the library's inputs, so
 * the HTTP API, MCP, the CLI, memory.md and imports alike): well-formed, no control characters,
 * checked before any trimming (a leading form feed is refused, not trimmed away). Chat messages are
 * not held to it: they record what was said.
 */
export const ContentText = z.string().superRefine((s, ctx) => {
  const problem = contentTextProblem(s);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});
