/**
 * Tunes the context ranking on LoCoMo conversations 0–4 (never the held-out 5–9):
 *   npx tsx bench/tune-context.ts [--conversations 0,1] [--ranking '{"floor":0.3}'] [--pools offline,turns]
 */
import { parseArgs } from 'node:util';
import { ContextRanking } from '../src/context/rank-evidence.js';
import type { PoolName } from './context-pools.js';
import { runContextBench, TUNING } from './context.js';

const { values } = parseArgs({ options: { conversations: { type: 'string' }, ranking: { type: 'string' }, pools: { type: 'string' } } });
const conversations = values.conversations ? values.conversations.split(',').map(Number) : TUNING;
if (conversations.some((c) => !TUNING.includes(c))) throw new Error('Tune on conversations 0-4 only; 5-9 are held out.');
const ranking = values.ranking ? ContextRanking.partial().parse(JSON.parse(values.ranking)) : undefined;
const pools = values.pools ? (values.pools.split(',') as PoolName[]) : undefined;
const { text } = await runContextBench({ conversations, recallOnly: true, log: () => {}, ...(ranking ? { ranking } : {}), ...(pools ? { pools } : {}) });
console.log(text);
