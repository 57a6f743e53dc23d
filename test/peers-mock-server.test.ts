import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerChat, deriveMemories } from '../bench/peers/mock-answers.js';
import { MOCK_DIMENSIONS, startMockServer, type MockServer } from '../bench/peers/mock-llm-server.js';
import { localEmbedder } from '../bench/peers/peer-common.js';
import { createOpenAICompatibleEmbedder } from '../src/embedders/openai-compatible-embedder.js';
import { createOpenAICompatibleModel } from '../src/models/openai-compatible.js';
import { extractMemoriesPrompt } from '../src/prompts/extract-memories.js';

describe('the benchmarks’ mock model server', () => {
  let server: MockServer;
  beforeAll(async () => void (server = await startMockServer()));
  afterAll(async () => server.close());

  it('answers Engram’s extraction prompt with operations its schema accepts, and counts the call', async () => {
    const model = createOpenAICompatibleModel({ baseURL: server.baseURL, apiKey: 'engram:test', model: 'mock-chat', maxRetries: 0 });
    const { output } = await model.generate(extractMemoriesPrompt, { summarize: false,
      now: '2023-05-08T13:56:00Z',
      timeZone: 'UTC',
      existing: [{ alias: '1', kind: 'fact', content: 'The user said: I adopted a puppy last week', date: '2023-05-01' }],
      context: [],
      messages: [
        { ref: 'm1', role: 'user', content: 'I adopted a puppy last week. Her name is Luna and she loves the beach!', time: '2023-05-08T13:55' },
        { ref: 'm2', role: 'assistant', content: 'That is lovely, tell me more about her please.', time: '2023-05-08T13:56' },
      ],
    });
    expect(output.operations).toEqual([
      expect.objectContaining({ op: 'reinforce', target: '1' }),
      expect.objectContaining({ op: 'add', content: 'The user said: Her name is Luna and she loves the beach', sourceMessageIds: ['m1'] }),
    ]);
    const counts = server.client('engram:test');
    expect(counts.chat.calls).toBe(1);
    expect(counts.chat.inputTokens).toBeGreaterThan(300);
    expect(counts.chat.outputTokens).toBeGreaterThan(10);
  });

  it('serves the same vectors as floats and as base64, equal to the local function', async () => {
    const post = async (format?: string) =>
      (await (await fetch(`${server.baseURL}/embeddings`, {
        method: 'POST',
        headers: { authorization: 'Bearer e', 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'm', input: ['我喜欢猫 and cats'], ...(format ? { encoding_format: format } : {}) }),
      })).json()) as { data: Array<{ embedding: number[] | string }> };
    const floats = (await post()).data[0]!.embedding as number[];
    const b64 = Buffer.from((await post('base64')).data[0]!.embedding as string, 'base64');
    const decoded = Array.from(new Float32Array(b64.buffer, b64.byteOffset, b64.byteLength / 4));
    const [local] = await localEmbedder.embed(['我喜欢猫 and cats']);
    expect(floats).toHaveLength(MOCK_DIMENSIONS);
    expect(decoded).toEqual(floats);
    expect(floats).toEqual(Array.from(local!));
    const engram = createOpenAICompatibleEmbedder({ baseURL: server.baseURL, model: 'm', dimensions: MOCK_DIMENSIONS });
    expect(Array.from((await engram.embed(['我喜欢猫 and cats']))[0]!)).toEqual(floats);
  });

  it('answers mem0 2.x (facts, then decisions) and 3.x in their shapes, from user lines only', () => {
    const userTexts = new Set(['I moved to Lisbon with my two kids in March.']);
    const facts = answerChat(
      [
        { role: 'system', content: 'You are a Personal Information Organizer ... extract relevant pieces of information ...' },
        { role: 'user', content: 'Input:\nI moved to Lisbon with my two kids in March.\nSounds like a big change for all of you!' },
      ],
      userTexts,
    );
    expect(facts).toEqual({ prompt: 'mem0v2-facts', json: { facts: ['The user said: I moved to Lisbon with my two kids in March'] } });
    const update = answerChat([
      {
        role: 'user',
        content: `You are a smart memory manager ... Compare newly retrieved facts ... You have to update it in the following format only:\n[{"id":"0","text":"The user said: I moved to Lisbon with my two kids in March"}]\nThe new retrieved facts are mentioned below. ... should be added, updated, or deleted in the memory.\n["The user said: I moved to Lisbon with my two kids in March","The user said: My daughter starts school next week"]\nFollow the instruction mentioned below:`,
      },
    ]);
    expect(update.json).toEqual({
      memory: [
        { id: '0', text: 'The user said: I moved to Lisbon with my two kids in March', event: 'NONE' },
        { id: '1', text: 'The user said: My daughter starts school next week', event: 'ADD' },
      ],
    });
    const v3 = answerChat([
      { role: 'system', content: '# ROLE\n\nYou are a Memory Extractor — a precise processor' },
      { role: 'user', content: '## Summary\n\n## New Messages\nuser: Hi! I started learning the cello this spring.\nassistant: What a lovely instrument to learn.\n\n## Observation Date\n2025-01-01' },
    ]);
    expect(v3.json).toEqual({ memory: [{ id: '0', text: 'The user said: I started learning the cello this spring', attributed_to: 'user' }] });
  });

  it('derives one memory per sentence of five words or more', () => {
    expect(deriveMemories('Hi! I went hiking with my sister. Fun. 我们明天去北京看长城。好的。')).toEqual(['The user said: I went hiking with my sister', '用户说：我们明天去北京看长城']);
  });
});
