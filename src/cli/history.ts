import type { Command } from 'commander';
import type { HistoryEvent } from '../domain/history.js';
import { displayWidth, pad, truncate, when } from './format.js';
import { emit, type CliIo } from './io.js';
import { withEngine } from './runtime.js';

/** `engram history <id>`: every change to a memory, oldest first, with before and after. */
export function registerHistory(program: Command, io: CliIo): void {
  program
    .command('history')
    .description('show how a memory changed: each event with before/after, actor, reason and time')
    .argument('<id>', 'memory id')
    .action((id: string, _options: unknown, command: Command) =>
      withEngine(io, command, async ({ engine, userId, json }) => {
        const events = await engine.history(userId, id);
        emit(io, json, { memoryId: id, events }, () => (events.length === 0 ? `No history for ${id}.` : renderHistory(events)));
      }),
    );
}

/** A create event records every field; these are the ones worth reading. */
const CREATE_FIELDS = ['kind', 'content', 'importance', 'happenedAt', 'expiresAt', 'source'];
const VALUE_WIDTH = 60;

function show(value: unknown): string {
  if (value === null || value === undefined) return '∅';
  return truncate(typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value), VALUE_WIDTH);
}

function renderEvent(e: HistoryEvent): string {
  const head = [when(e.at), pad(e.action, 9), `by ${e.actor}`, e.reason ? `— ${e.reason}` : '', e.producedBy ? `[${e.producedBy}]` : '']
    .filter((s) => s !== '')
    .join('  ');
  const lines = [head];
  if (e.action === 'create' && e.after) {
    const keys = CREATE_FIELDS.filter((k) => e.after![k] !== null && e.after![k] !== undefined);
    const width = Math.max(...keys.map(displayWidth));
    for (const k of keys) lines.push(`    ${pad(k, width)}  ${show(e.after[k])}`);
  } else if (e.before || e.after) {
    const keys = e.changed.length > 0 ? e.changed : Object.keys(e.after ?? e.before ?? {});
    const width = Math.max(0, ...keys.map(displayWidth));
    for (const k of keys) lines.push(`    ${pad(k, width)}  ${show(e.before?.[k])} → ${show(e.after?.[k])}`);
  }
  return lines.join('\n');
}

function renderHistory(events: readonly HistoryEvent[]): string {
  return events.map(renderEvent).join('\n');
}
