import { InvalidInputError } from '../errors.js';

/** A memory version as a strong HTTP entity tag. */
export const etagOf = (version: string): string => `"${version}"`;

const TAG = /^\s*(W\/)?"([\x21\x23-\x7e\x80-\xff]+)"\s*$/;

/**
 * The versions an If-Match header accepts (RFC 9110 §13.1.1): undefined when there is no header or
 * it is `*` (any current memory: the route's NOT_FOUND covers the rest). If-Match compares strongly,
 * so a weak tag (W/"…") matches no version and the change is refused, as the RFC asks. A header that
 * is not a list of quoted tags is a 400 naming it, never taken as "no condition".
 */
export function parseIfMatch(header: string | undefined): readonly string[] | undefined {
  if (header === undefined || header.trim() === '*') return undefined;
  const tags = header.split(',').map((part) => TAG.exec(part));
  if (tags.length === 0 || tags.some((t) => t === null)) {
    throw new InvalidInputError('Invalid If-Match header: send the ETag of the memory as it was read (a quoted tag such as "3q2-7w"), or *', { details: { field: 'If-Match' } });
  }
  return tags.map((t) => (t![1] ? `W/${t![2]}` : t![2]!));
}
