/**
 * Remembering cost and the layered context, on a LoCoMo conversation replayed as a chat:
 * speaker A is the user, speaker B the assistant; turns 30 s apart; between sessions the
 * simulated clock jumps to the next session's date; the scheduler runs a pass after every turn
 * (as its 30-second timer would) and extraction fires on silence, as designed.
 * The model is a counting scripted model whose answers come from the same deterministic mock the
 * peers benchmark serves over HTTP (bench/peers/mock-answers.ts): model time is ~0 and excluded.
 * Reports model calls and tokens per 100 user messages (per prompt), pipeline time per batch,
 * then the context block's size per LoCoMo question against the conversation's full history.
 */
import { createHashEmbedder } from '../src/embedders/hash-embedder.js';
import { createMemory } from '../src/memory.js';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { fixedClock } from '../src/testing/clock.js';
import { scriptedModel } from '../src/testing/scripted-model.js';
import { countTokens } from '../src/text/tokens.js';
import { loadLocomo } from './locomo-data.js';
import { answerChat } from './peers/mock-answers.js';
import { table } from './report.js';

export interface IngestResult {
  conversation: string;
  sessions: number;
  userMessages: number;
  perHundredUserMessages: { calls: number; inputTokens: number; outputTokens: number; byPrompt: Record<string, { calls: number; inputTokens: number; outputTokens: number }> };
  extractionBatches: number;
  smallTalkSkipped: number;
  pipelineMsPerBatch: number;
  /** A scheduler pass with nothing due. */
  idlePassMs: number;
  appendMsPerMessage: number;
  memoriesStored: number;
  episodes: number;
  profileVersions: number;
  context: { budget: number; questions: number; meanTokens: number; p50Tokens: number; maxTokens: number; fullHistoryTokens: number; ratio: number; meanItems: Record<string, number> };
}

export async function runIngest(options: { quick: boolean }): Promise<{ result: IngestResult; text: string }> {
  const [conversation] = loadLocomo().filter((c) => c.index === 0);
  if (!conversation) throw new Error('LoCoMo conversation 0 is missing');
  const sessions = [...new Set(conversation.turns.map((t) => t.sessionId))].slice(0, options.quick ? 5 : undefined);
  const turns = conversation.turns.filter((t) => sessions.includes(t.sessionId));
  let modelMs = 0;
  const model = scriptedModel((_id, _input, built) => {
    const start = performance.now();
    const answer = answerChat([{ role: 'system', content: built.system }, ...built.messages]).json;
    modelMs += performance.now() - start;
    return answer;
  });
  const clock = fixedClock(turns[0]!.createdAt);
  const engine = createMemory({ store: openSqliteStore({ path: ':memory:' }), embedder: createHashEmbedder({ dimensions: 256 }), clock, model });
  const userId = conversation.sampleId;
  const [userSpeaker] = conversation.speakers;
  let appendMs = 0;
  let batchMs = 0;
  let idleTickMs = 0;
  let idleTicks = 0;
  let previousSession = '';
  for (const [i, t] of turns.entries()) {
    if (t.sessionId !== previousSession) {
      // The gap between sessions: the last one goes quiet, then time jumps to this session's date.
      if (previousSession) for (let k = 0; k < 3; k++) (clock.advance(20 * 60_000), await timed(() => engine.tick()));
      if (clock.now().getTime() < t.createdAt.getTime()) clock.set(t.createdAt);
      previousSession = t.sessionId;
    }
    const start = performance.now();
    await engine.appendMessages({ messages: [{ id: t.id, userId, sessionId: t.sessionId, role: t.speaker === userSpeaker ? 'user' : 'assistant', content: t.content, createdAt: clock.now() }], retentionDays: 3650 });
    appendMs += performance.now() - start;
    clock.advance(30_000);
    await timed(() => engine.tick());
    if (i === turns.length - 1) for (let k = 0; k < 3; k++) (clock.advance(20 * 60_000), await timed(() => engine.tick()));
  }
  await engine.idle();
  /** Scheduler passes that extracted a batch count as batch time (model time removed); the rest as idle passes. */
  async function timed(fn: () => Promise<Array<unknown>>): Promise<void> {
    const start = performance.now();
    const model0 = modelMs;
    const reports = await fn();
    const ms = performance.now() - start - (modelMs - model0);
    if (reports.length > 0) batchMs += ms;
    else (idleTickMs += ms, idleTicks++);
  }

  const userMessages = turns.filter((t) => t.speaker === userSpeaker).length;
  const usage = model.usage.snapshot();
  const per = (n: number) => Math.round((n * 1000) / userMessages) / 10;
  const byPrompt = Object.fromEntries(Object.entries(usage.byPrompt).map(([id, u]) => [id, { calls: per(u.calls), inputTokens: per(u.inputTokens), outputTokens: per(u.outputTokens) }]));
  const stats = engine.stats().extraction;

  const budget = 1500;
  const sizes: number[] = [];
  const items: Record<string, number> = {};
  const questions = conversation.questions.slice(0, options.quick ? 40 : undefined);
  for (const q of questions) {
    const block = await engine.context({ userId, query: q.question, tokenBudget: budget });
    sizes.push(block.tokens);
    for (const it of block.included) items[it.type] = (items[it.type] ?? 0) + 1;
  }
  sizes.sort((a, b) => a - b);
  const fullHistoryTokens = countTokens(conversation.turns.map((t) => t.content).join('\n'));
  const mean = sizes.reduce((a, b) => a + b, 0) / Math.max(sizes.length, 1);
  const result: IngestResult = {
    conversation: `${conversation.sampleId}${options.quick ? ` (sessions 1-${sessions.length})` : ''}`,
    sessions: sessions.length,
    userMessages,
    perHundredUserMessages: { calls: per(usage.total.calls), inputTokens: per(usage.total.inputTokens), outputTokens: per(usage.total.outputTokens), byPrompt },
    extractionBatches: stats.batches,
    smallTalkSkipped: stats.smallTalkSkipped,
    pipelineMsPerBatch: Math.round((batchMs / Math.max(stats.batches, 1)) * 10) / 10,
    idlePassMs: Math.round((idleTickMs / Math.max(idleTicks, 1)) * 100) / 100,
    appendMsPerMessage: Math.round((appendMs / turns.length) * 100) / 100,
    memoriesStored: (await engine.list({ userId })).length,
    episodes: (await engine.list({ userId, kinds: ['episode'], statuses: ['active', 'deleted'] })).length,
    profileVersions: (await engine.profileVersions(userId)).length,
    context: {
      budget, questions: sizes.length, meanTokens: Math.round(mean), p50Tokens: sizes[Math.floor(sizes.length / 2)] ?? 0, maxTokens: sizes.at(-1) ?? 0,
      fullHistoryTokens, ratio: Math.round((fullHistoryTokens / Math.max(mean, 1)) * 10) / 10,
      meanItems: Object.fromEntries(Object.entries(items).map(([k, v]) => [k, Math.round((v / Math.max(sizes.length, 1)) * 10) / 10])),
    },
  };
  await engine.close();
  const text = [
    `LoCoMo ${result.conversation} replayed as a chat: ${result.sessions} sessions, ${turns.length} turns, ${userMessages} user messages; counting scripted model (deterministic mock answers)`,
    '',
    table(['prompt', 'calls / 100 user msgs', 'input tokens / 100', 'output tokens / 100'], [
      ...Object.entries(byPrompt).map(([id, u]) => [id, String(u.calls), String(u.inputTokens), String(u.outputTokens)]),
      ['all', String(result.perHundredUserMessages.calls), String(result.perHundredUserMessages.inputTokens), String(result.perHundredUserMessages.outputTokens)],
    ]),
    '',
    `extraction batches ${result.extractionBatches} (small talk skipped ${result.smallTalkSkipped}); pipeline time per batch excluding model time ${result.pipelineMsPerBatch} ms (the pass that extracts it, episode and profile included); an idle scheduler pass ${result.idlePassMs} ms; append ${result.appendMsPerMessage} ms per message (hash embedder)`,
    `stored: ${result.memoriesStored} active memories, ${result.episodes} episodes, ${result.profileVersions} profile versions`,
    '',
    `Context block (budget ${budget}) over ${result.context.questions} LoCoMo questions: mean ${result.context.meanTokens} tokens, p50 ${result.context.p50Tokens}, max ${result.context.maxTokens}; ` +
      `full history ${fullHistoryTokens} tokens (${result.context.ratio}× larger). Mean items per block: ${JSON.stringify(result.context.meanItems)}`,
  ].join('\n');
  return { result, text };
}
