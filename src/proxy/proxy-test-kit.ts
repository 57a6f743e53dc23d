import OpenAI from 'openai';
import type { Logger } from '../deps.js';
import { testMemory } from '../testing/test-memory.js';
import { createChatProxy, type ChatProxy, type ChatProxyOptions } from './chat-proxy.js';
import { serveLoopback } from './serve-loopback.js';

/**
 * What the proxy's tests share (chat-proxy.test.ts, responses-proxy.test.ts): an engine where li
 * said something in Chinese and ann in English, and the proxy served on loopback to the official
 * `openai` client.
 */
export async function memoryOfLiAndAnn(): Promise<ReturnType<typeof testMemory>> {
  const memory = testMemory();
  await memory.add({ userId: 'li', kind: 'preference', content: '用户喜欢猫' });
  await memory.add({ userId: 'ann', kind: 'preference', content: 'Ann loves hiking in the Alps' });
  return memory;
}

/** The proxy with these options on a loopback port, and an `openai` client pointed at it (no retries). */
export async function serveProxy(options: ChatProxyOptions): Promise<{ proxy: ChatProxy; server: { url: string; close(): Promise<void> }; client: OpenAI }> {
  const proxy = createChatProxy(options);
  const server = await serveLoopback(proxy.fetch);
  return { proxy, server, client: new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'engram-key', maxRetries: 0 }) };
}

export type LogLine = [level: 'debug' | 'info' | 'warn' | 'error', message: string, data: Record<string, unknown> | undefined];

/** A logger that keeps every line, to assert what the proxy said (and at which level). */
export function recordingLogger(): Logger & { lines: LogLine[] } {
  const lines: LogLine[] = [];
  const at = (level: LogLine[0]) => (message: string, data?: Record<string, unknown>): void => void lines.push([level, message, data]);
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
