/** The small injected services every pipeline receives (STYLE: time and ids are injected). */
export interface Clock {
  now(): Date;
}
export interface IdGenerator {
  next(): string;
}
export interface Logger {
  debug(msg: string, data?: Record<string, unknown>): void;
  info(msg: string, data?: Record<string, unknown>): void;
  warn(msg: string, data?: Record<string, unknown>): void;
  error(msg: string, data?: Record<string, unknown>): void;
}

export const systemClock: Clock = { now: () => new Date() };

export const randomIds: IdGenerator = { next: () => crypto.randomUUID() };

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

export function consoleLogger(level: 'debug' | 'info' | 'warn' | 'error' = 'info'): Logger {
  const order = ['debug', 'info', 'warn', 'error'] as const;
  const min = order.indexOf(level);
  const at = (l: (typeof order)[number]) => (msg: string, data?: Record<string, unknown>) => {
    if (order.indexOf(l) < min) return;
    process.stderr.write(`[engram] ${l} ${msg}${data ? ' ' + JSON.stringify(data) : ''}\n`);
  };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
