import type { ErrorCode } from '../errors.js';

const MARKER = Symbol.for('engram.http-error');

/** An error answered by the Engram service (or the network on the way): `code` is what to branch on. */
export class EngramHttpError extends Error {
  readonly [MARKER] = true;
  constructor(
    readonly status: number,
    /** An Engram error code, 'INTERNAL' for a server fault, 'NETWORK' when no answer came. */
    readonly code: ErrorCode | 'INTERNAL' | 'NETWORK',
    message: string,
    readonly details: Record<string, unknown> | undefined = undefined,
    readonly requestId: string | undefined = undefined,
    options: { cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'EngramHttpError';
  }

  static isInstance(value: unknown): value is EngramHttpError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
  }
}
