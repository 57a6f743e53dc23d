/**
 * Renders stored text as a quoted data literal: JSON string escaping keeps it on one line and
 * inside its quotes, and angle brackets are escaped so no memory can close the <memories> block
 * or open a tag of its own.
 */
export function quoteData(text: string): string {
  return JSON.stringify(text).replace(/</g, '\\u003c').replace(/>/g, '\\u003e');
}
