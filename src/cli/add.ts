import type { Command } from 'commander';
import type { Memory, MemoryKind } from '../domain/memory.js';
import { emit, type CliIo } from './io.js';
import { parseImportance, parseKind, readDate } from './options.js';
import { withEngine } from './runtime.js';
import { describeMemory, versioned } from './show.js';

interface AddOptions {
  kind?: MemoryKind;
  importance?: number;
  expires?: string;
  happened?: string;
  due?: string;
}

/** `engram add <content...>`: stores a memory by hand, in the language it was written in. */
export function registerAdd(program: Command, io: CliIo): void {
  program
    .command('add')
    .description('remember something about the user')
    .argument('<content...>', 'what to remember (words are joined with spaces)')
    .option('-k, --kind <kind>', 'identity, preference, fact, person, event, plan, todo, …', parseKind)
    .option('-i, --importance <0..1>', 'how much it matters (default 0.5)', parseImportance)
    .option('--expires <date>', 'forget it after this date (YYYY-MM-DD, "next friday", "下周五")')
    .option('--happened <date>', 'when the event happened or will happen')
    .option('--due <time>', 'with --kind todo: when it is due ("明天下午三点", "friday 5pm"); parsed from the text when absent')
    .action((words: string[], options: AddOptions, command: Command) =>
      withEngine(io, command, async ({ engine, userId, json }) => {
        const now = engine.deps.clock.now();
        const expiresAt = options.expires === undefined ? undefined : await readDate('--expires', options.expires, now);
        const happenedAt = options.happened === undefined ? undefined : await readDate('--happened', options.happened, now);
        // A spoken due time is read on the user's wall clock, as the extractor reads it.
        const dueAt = options.due === undefined ? undefined : await readDate('--due', options.due, now, (await engine.getSettings(userId)).timeZone);
        const memory = await engine.add({
          userId,
          content: words.join(' '),
          ...(options.kind ? { kind: options.kind } : {}),
          ...(options.importance !== undefined ? { importance: options.importance } : {}),
          ...(expiresAt ? { expiresAt } : {}),
          ...(happenedAt ? { happenedAt } : {}),
          ...(dueAt ? { dueAt } : {}),
        });
        emit(io, json, versioned(memory), () => renderAdded(memory));
      }),
    );
}

function renderAdded(memory: Memory): string {
  return `Remembered ${memory.id}\n${describeMemory(memory)}`;
}
