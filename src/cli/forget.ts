import type { Command } from 'commander';
import { InvalidInputError } from '../errors.js';
import type { MemoryEngine } from '../memory.js';
import { fields, table } from './format.js';
import { emit, type CliIo } from './io.js';
import { withEngine } from './runtime.js';
import { previewForgetTopic } from '../pipelines/forget-preview.js';

interface ForgetOptions {
  all?: boolean;
  topic?: string;
  yes?: boolean;
}

/** What `forget --all` would erase, counted from the user's export. */
async function previewAll(engine: MemoryEngine, userId: string) {
  const e = await engine.exportUser(userId);
  return { memories: e.memories.length, messages: e.messages.length, todos: e.todos.length, profiles: e.profiles.length, history: e.history.length };
}

/**
 * `engram forget --all | --topic <topic> [--yes]`: really erases (seed 003 "用户要求遗忘"). Without
 * --yes it is a dry run: it shows what would go and exits 0, and a missing flag never erases anything.
 */
export function registerForget(program: Command, io: CliIo): void {
  program
    .command('forget')
    .description('erase everything about the user (--all) or about a topic (--topic); needs --yes')
    .option('--all', 'every memory, message, todo, profile version and history event of the user')
    .option('-t, --topic <topic>', 'memories and episodes about a topic; the profile is rewritten without it')
    .option('-y, --yes', 'really erase; without it, only show what would be erased')
    .action((options: ForgetOptions, command: Command) =>
      withEngine(io, command, async ({ engine, userId, json }) => {
        const topic = options.topic?.trim();
        if (Boolean(options.all) === (topic !== undefined)) throw new InvalidInputError('forget needs exactly one of --all or --topic <topic>');
        if (topic === '') throw new InvalidInputError('--topic must not be empty');
        if (!options.yes) {
          const plan = topic === undefined ? { userId, all: true, wouldErase: await previewAll(engine, userId) } : { userId, topic, wouldErase: await previewForgetTopic(engine.deps, userId, topic) };
          emit(io, json, { dryRun: true, ...plan }, () =>
            'all' in plan
              ? `Would erase everything about ${userId}, for good:\n${fields(Object.entries(plan.wouldErase).map(([k, v]) => [k, String(v)]))}\nNothing was erased: add --yes to forget for good.`
              : `Would erase the memories and episodes about "${topic}" for ${userId}, for good, and rewrite the profile without it. At least these:\n` +
                (plan.wouldErase.length === 0 ? '(no memory mentions it; close paraphrases may still match)' : table([{ header: 'kind' }, { header: 'content', max: 56 }, { header: 'id' }], plan.wouldErase.map((m) => [m.kind, m.content, m.id]))) +
              '\nNothing was erased: add --yes to forget for good.',
          );
          return;
        }
        if (topic === undefined) {
          const removed = await engine.forget({ userId });
          emit(io, json, { userId, all: true, removed }, () => `Forgot everything about ${userId}:\n${fields(Object.entries(removed).filter(([, n]) => n > 0).map(([k, n]) => [k, String(n)]))}`);
          return;
        }
        const report = await engine.forgetTopic(userId, topic);
        emit(io, json, { userId, topic, ...report }, () =>
          `Forgot ${report.forgotten.length} memor${report.forgotten.length === 1 ? 'y' : 'ies'} about "${topic}" for ${userId}` +
          (report.profileVersion !== undefined ? `; profile rewritten as version ${report.profileVersion}` : '') + '.',
        );
      }),
    );
}
