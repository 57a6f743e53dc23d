/**
 * One error base for the whole library. Every error carries a stable `code` (what a caller or the
 * HTTP layer branches on), an optional `cause`, and optional `details` (e.g. the raw model text).
 */
export const ERROR_CODES = [
  'INVALID_INPUT',
  'NOT_FOUND',
  'EMBEDDER_MISMATCH',
  'EMBEDDING_FAILED',
  'STORE_FAILED',
  /** Another process held the database lock longer than the busy timeout: safe to retry. */
  'STORE_BUSY',
  'MIGRATION_FAILED',
  'MODEL_FAILED',
  'MODEL_TIMEOUT',
  'MODEL_OUTPUT_INVALID',
  'CONFLICT',
  /** A change was based on a version of a memory that is no longer current (HTTP If-Match): nothing was changed. */
  'PRECONDITION_FAILED',
  'CONFIG_INVALID',
  'DELIVERY_FAILED',
  // HTTP service (src/server/)
  'UNAUTHORIZED',
  'FORBIDDEN',
  /** The path exists, not with this method; the answer's `Allow` header lists its methods. */
  'METHOD_NOT_ALLOWED',
  'RATE_LIMITED',
  'PAYLOAD_TOO_LARGE',
  'UPSTREAM_FAILED',
  'MIRROR_FAILED',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

const MARKER = Symbol.for('engram.error');

export class EngramError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;
  readonly [MARKER] = true;

  constructor(code: ErrorCode, message: string, options: { cause?: unknown; details?: Record<string, unknown> } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'EngramError';
    this.code = code;
    this.details = options.details;
  }

  /** Works across module copies (dual packages), unlike `instanceof`. */
  static isInstance(value: unknown): value is EngramError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
  }

  static hasCode(value: unknown, code: ErrorCode): value is EngramError {
    return EngramError.isInstance(value) && value.code === code;
  }
}

export class NotFoundError extends EngramError {
  constructor(what: string, id: string) {
    super('NOT_FOUND', `${what} ${id} not found`, { details: { what, id } });
    this.name = 'NotFoundError';
  }
}

/**
 * A change made on the basis of a version the memory no longer has: someone changed it since it was
 * read. Nothing was changed; `details.current` is the version now, to read the memory again.
 */
export class StaleVersionError extends EngramError {
  constructor(id: string, expected: readonly string[], current: string) {
    super('PRECONDITION_FAILED', `Memory ${id} was changed since version ${expected.map((v) => `"${v}"`).join(' or ')} was read (it is now "${current}"): nothing was changed; read it again and reapply the change`, {
      details: { id, expected: [...expected], current },
    });
    this.name = 'StaleVersionError';
  }
}

export class InvalidInputError extends EngramError {
  constructor(message: string, options: { cause?: unknown; details?: Record<string, unknown> } = {}) {
    super('INVALID_INPUT', message, options);
    this.name = 'InvalidInputError';
  }
}

export class EmbedderMismatchError extends EngramError {
  constructor(stored: string, current: string) {
    super(
      'EMBEDDER_MISMATCH',
      `This store's vectors were made by embedder "${stored}" but it was opened with "${current}". ` +
        `Open it with "${stored}", or run reindex (engram reindex / memory.reindex()) to re-embed everything with "${current}".`,
      { details: { stored, current } },
    );
    this.name = 'EmbedderMismatchError';
  }
}

/** Parses input with a zod schema and turns a failure into an INVALID_INPUT error naming the fields. */
export function parseInput<T>(schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }> } } }, value: unknown, what: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues.map((i) => `${i.path.map(String).join('.') || '(root)'}: ${i.message}`);
  throw new InvalidInputError(`Invalid ${what}: ${issues.join('; ')}`, { details: { issues } });
}
