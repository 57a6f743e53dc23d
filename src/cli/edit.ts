import type { Command } from 'commander';
import type { MemoryKind } from '../domain/memory.js';
import { InvalidInputError } from '../errors.js';
import { emit, type CliIo } from './io.js';
import { IF_VERSION_HELP, parseImportance, parseKind, versionCondition } from './options.js';
import { withEngine } from './runtime.js';
import { describeMemory, versioned } from './show.js';

interface EditOptions {
  content?: string;
  kind?: MemoryKind;
  importance?: number;
  reason?: string;
  ifVersion?: string;
}

/** `engram edit <id> --content … --kind … --importance …`: changes a memory by hand, with history. */
export function registerEdit(program: Command, io: CliIo): void {
  program
    .command('edit')
    .description('change a memory\'s content, kind or importance (history keeps the old values)')
    .argument('<id>', 'memory id')
    .option('-c, --content <text>', 'the new full content')
    .option('-k, --kind <kind>', 'identity, preference, fact, person, event, plan, todo, …', parseKind)
    .option('-i, --importance <0..1>', 'how much it matters', parseImportance)
    .option('-r, --reason <text>', 'why, kept in the history')
    .option('--if-version <version>', IF_VERSION_HELP)
    .action((id: string, options: EditOptions, command: Command) =>
      withEngine(io, command, async ({ engine, userId, json }) => {
        if (options.content === undefined && options.kind === undefined && options.importance === undefined) {
          throw new InvalidInputError('edit: give at least one of --content, --kind, --importance');
        }
        const memory = await engine.update(
          userId, id,
          { ...(options.content !== undefined ? { content: options.content } : {}), ...(options.kind ? { kind: options.kind } : {}), ...(options.importance !== undefined ? { importance: options.importance } : {}) },
          { actor: 'user', ...(options.reason ? { reason: options.reason } : {}) },
          versionCondition(options.ifVersion),
        );
        emit(io, json, versioned(memory), () => `Edited ${memory.id}\n${describeMemory(memory)}`);
      }),
    );
}
