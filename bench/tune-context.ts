/**
 * Tunes the context ranking on LoCoMo conversations 0–4 (never the held-out 5–9):
 *   npx tsx bench/tune-context.ts [--conversations 0,1] [--ranking '{"floor":0.3}'] [--pools offline,turns]
 * `--held-out` reports the defaults on 5–9 (recall only, no latency or extractor part): to read
 * the figures, never to choose settings by.
 */
import { parseArgs } from 'node:util';
import { ContextRanking } from '../src/context/rank-evidence.js';
import type { PoolName } from './context-pools.js';
import { HELD_OUT, runContextBench, TUNING } from './context.js';

const { values } = parseArgs({ options: { 'held-out': { type: 'boolean' }, modes: { type: 'string' }, conversations: { type: 'string' }, ranking: { type: 'string' }, pools: { type: 'string' } } });
if (values['held-out'] && (values.ranking || values.conversations)) throw new Error('--held-out reports the defaults on 5-9: no --ranking or --conversations.');
const conversations = values['held-out'] ? HELD_OUT : values.conversations ? values.conversations.split(',').map(Number) : TUNING;
if (!values['held-out'] && conversations.some((c) => !TUNING.includes(c))) throw new Error('Tune on conversations 0-4 only; 5-9 are held out.');
const ranking = values.ranking ? ContextRanking.partial().parse(JSON.parse(values.ranking)) : undefined;
const pools = values.pools ? (values.pools.split(',') as PoolName[]) : undefined;
const modes = values.modes ? (values.modes.split(',') as Array<'off' | 'auto'>) : undefined;
const { text } = await runContextBench({ conversations, recallOnly: true, log: () => {}, ...(modes ? { modes } : {}), ...(ranking ? { ranking } : {}), ...(pools ? { pools } : {}) });
console.log(text);
