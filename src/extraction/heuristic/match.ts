import type { Lang, Pattern, Statement } from './candidate.js';
import { EN_DISCLOSURE } from './patterns-en-disclosure.js';
import { EN_PATTERNS } from './patterns-en.js';
import { ZH_DISCLOSURE } from './patterns-zh-disclosure.js';
import { ZH_PATTERNS } from './patterns-zh.js';
import { SEED_EN_PATTERNS, SEED_ZH_PATTERNS } from './patterns-seeds.js';

export interface Match {
  pattern: Pattern;
  statement: Statement;
  lang: Lang;
}

const TABLES: ReadonlyArray<readonly [Lang, readonly Pattern[]]> = [
  ['zh', ZH_PATTERNS],
  ['en', EN_PATTERNS],
  // After the general tables (a general row always wins): the seeds' own examples, then wider self-disclosure.
  ['zh', SEED_ZH_PATTERNS],
  ['en', SEED_EN_PATTERNS],
  ['zh', ZH_DISCLOSURE],
  ['en', EN_DISCLOSURE],
];

/** The first pattern row that matches the clause, Chinese table first; `only` narrows the rows. */
export function matchClause(clause: string, only?: (p: Pattern) => boolean): Match | undefined {
  return matchTables(clause, TABLES, only);
}

/** The first row of these tables, in order, that matches the clause and builds a statement. */
export function matchTables(clause: string, tables: ReadonlyArray<readonly [Lang, readonly Pattern[]]>, only?: (p: Pattern) => boolean): Match | undefined {
  for (const [lang, table] of tables) {
    for (const pattern of table) {
      if (only && !only(pattern)) continue;
      const m = pattern.re.exec(clause);
      if (!m) continue;
      const statement = pattern.build(m);
      if (statement) return { pattern, statement, lang };
    }
  }
  return undefined;
}
