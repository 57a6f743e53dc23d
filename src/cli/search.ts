import type { Command } from 'commander';
import type { MemoryKind } from '../domain/memory.js';
import type { RecalledMemory } from '../pipelines/recall.js';
import type { RecipeName } from '../recall/recipes.js';
import { num, table } from './format.js';
import { emit, type CliIo } from './io.js';
import { collectKinds, parseRecipe, positiveInt, RECIPE_NAMES } from './options.js';
import { withEngine } from './runtime.js';

interface SearchOptions {
  limit: number;
  recipe: RecipeName;
  kind?: MemoryKind[];
}

/** `engram search <query...>`: ranked recall, every result with the parts of its score. */
export function registerSearch(program: Command, io: CliIo): void {
  program
    .command('search')
    .description('find memories relevant to a query, with the parts of each score')
    .argument('<query...>', 'what to look for, in any language')
    .option('-n, --limit <n>', 'most results', positiveInt('--limit'), 10)
    .option('-r, --recipe <name>', `retrieval recipe: ${RECIPE_NAMES.join(', ')}`, parseRecipe, 'hybrid' as RecipeName)
    .option('-k, --kind <kind>', 'only these kinds (repeatable, or comma-separated)', collectKinds)
    .action((words: string[], options: SearchOptions, command: Command) =>
      withEngine(io, command, async ({ engine, userId, json }) => {
        const query = words.join(' ');
        // Looking is not using: a search from the terminal does not count as an access.
        const results = await engine.recall({
          userId,
          query,
          limit: options.limit,
          recipe: options.recipe,
          ...(options.kind ? { kinds: options.kind } : {}),
          touch: false,
        });
        const data = { query, recipe: options.recipe, results: results.map((r, i) => ({ rank: i + 1, ...r })) };
        emit(io, json, data, () => (results.length === 0 ? `No memories match "${query}".` : renderRecall(results)));
      }),
    );
}

/** The results table; shared with the demo. */
export function renderRecall(results: readonly RecalledMemory[], options: { contentWidth?: number; ids?: boolean } = {}): string {
  const columns = [
    { header: '#', align: 'right' as const },
    { header: 'final', align: 'right' as const },
    { header: 'rel', align: 'right' as const },
    { header: 'vec', align: 'right' as const },
    { header: 'kw', align: 'right' as const },
    { header: 'rec', align: 'right' as const },
    { header: 'imp', align: 'right' as const },
    { header: 'kind' },
    { header: 'content', max: options.contentWidth ?? 44 },
    ...(options.ids === false ? [] : [{ header: 'id' }]),
  ];
  const rows = results.map((r, i) => [
    String(i + 1),
    num(r.score.final),
    num(r.score.relevance),
    num(r.score.vector),
    num(r.score.keyword, 2),
    num(r.score.recency),
    num(r.score.importance, 2),
    r.memory.kind,
    r.memory.content,
    ...(options.ids === false ? [] : [r.memory.id]),
  ]);
  return table(columns, rows);
}
