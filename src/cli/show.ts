import type { Command } from 'commander';
import type { Memory } from '../domain/memory.js';
import { memoryVersion } from '../domain/memory-version.js';
import { fields, num, when } from './format.js';
import { emit, type CliIo } from './io.js';
import { withEngine } from './runtime.js';

/** `engram show <id>`: one memory with every field. */
export function registerShow(program: Command, io: CliIo): void {
  program
    .command('show')
    .description('show one memory with all its fields')
    .argument('<id>', 'memory id')
    .action((id: string, _options: unknown, command: Command) =>
      withEngine(io, command, async ({ engine, userId, json }) => {
        const memory = await engine.get(userId, id);
        const relations = await engine.relations(userId, id);
        const links = relations.map((r) => (r.sourceId === id ? `${r.type} → ${r.targetId}` : `${r.sourceId} ${r.type} → this`));
        emit(io, json, versioned(memory), () => describeMemory(memory) + (links.length > 0 ? `\n${fields([['relations', links.join('; ')]])}` : ''));
      }),
    );
}

/** A memory as --json prints it: with the version `--if-version` takes back. */
export const versioned = (m: Memory): Memory & { version: string } => ({ ...m, version: memoryVersion(m) });

const json = (v: unknown): string | undefined => (v === undefined ? undefined : JSON.stringify(v));

export function describeMemory(m: Memory): string {
  const provenance = m.provenance.sessionId || m.provenance.messageIds.length > 0 || m.provenance.producedBy ? json(m.provenance) : undefined;
  return fields([
    ['id', m.id],
    ['version', memoryVersion(m)],
    ['user', m.userId],
    ['agent', m.agentId],
    ['session', m.sessionId],
    ['kind', m.kind],
    ['content', m.content],
    ['language', m.language],
    ['status', m.status],
    ['importance', num(m.importance, 2)],
    ['confidence', num(m.confidence, 2)],
    ['source', m.source],
    ['verified', String(m.verified)],
    ['core', String(m.core)],
    ['flags', m.flags && m.flags.length > 0 ? `${m.flags.join(', ')} (extracted from text that tried to instruct the assistant)` : undefined],
    ['created', when(m.createdAt)],
    ['updated', when(m.updatedAt)],
    ['happened', m.happenedAt && when(m.happenedAt)],
    ['expires', m.expiresAt && when(m.expiresAt)],
    ['last accessed', m.lastAccessedAt && when(m.lastAccessedAt)],
    ['access count', String(m.accessCount)],
    ['embedder', m.embedderId],
    ['data', json(m.structuredData)],
    ['provenance', provenance],
  ]);
}
