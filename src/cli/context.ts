import type { Command } from 'commander';
import type { ContextBlock } from '../context/build-context.js';
import { InvalidInputError } from '../errors.js';
import { table } from './format.js';
import { emit, type CliIo } from './io.js';
import { nonNegativeInt, positiveInt } from './options.js';
import { withEngine } from './runtime.js';

interface ContextCommandOptions {
  budget: number;
  max?: number;
  language?: 'zh' | 'en';
}

function parseLanguage(value: string): 'zh' | 'en' {
  if (value === 'zh' || value === 'en') return value;
  throw new InvalidInputError(`--language: unknown value "${value}"; expected zh or en`);
}

/** `engram context <query...>`: the memory block an assistant would put in its system prompt. */
export function registerContext(program: Command, io: CliIo): void {
  program
    .command('context')
    .description('build the memory block for a system prompt, within a token budget')
    .argument('<query...>', "the user's current message")
    .option('-b, --budget <tokens>', 'most tokens the block may use', nonNegativeInt('--budget'), 800)
    .option('--max <n>', 'most memories included (default: the budget and the relevance floor decide)', positiveInt('--max'))
    .option('--language <zh|en>', 'heading language (default: detected from the query)', parseLanguage)
    .action((words: string[], options: ContextCommandOptions, command: Command) =>
      withEngine(io, command, async ({ engine, userId, json }) => {
        const query = words.join(' ');
        const block = await engine.context({
          userId,
          query,
          tokenBudget: options.budget,
          ...(options.max ? { maxMemories: options.max } : {}),
          ...(options.language ? { language: options.language } : {}),
        });
        emit(io, json, { query, ...block }, () => renderContext(block));
      }),
    );
}

/** The block, then what it cost and what went in; shared with the demo. */
export function renderContext(block: ContextBlock, options: { items?: boolean } = {}): string {
  const text = block.text === '' ? '(empty: nothing relevant fits)' : block.text;
  const summary = `tokens ${block.tokens}/${block.budget} · ${block.included.length} included · ${block.omitted} omitted · language ${block.language}`;
  const parts = [text, '', summary];
  if (options.items !== false && block.included.length > 0) {
    const rows = block.included.map((i) => [i.type, i.kind ?? '-', String(i.tokens), i.id]);
    parts.push('', table([{ header: 'type' }, { header: 'kind' }, { header: 'tokens', align: 'right' }, { header: 'id' }], rows));
  }
  return parts.join('\n');
}
