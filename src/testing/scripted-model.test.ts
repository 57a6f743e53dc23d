import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { EngramError } from '../errors.js';
import { definePrompt } from '../prompts/prompt.js';
import { countTokens } from '../text/tokens.js';
import { scriptedModel } from './scripted-model.js';

const listItems = definePrompt({
  id: 'list-items',
  version: 1,
  input: z.object({ text: z.string() }),
  output: z.object({ items: z.array(z.string()) }),
  build: ({ text }) => ({ system: '列出用户提到的东西。List the things mentioned.', messages: [{ role: 'user', content: text }] }),
});

const summarize = definePrompt({
  id: 'summarize',
  version: 1,
  input: z.object({ text: z.string() }),
  output: z.object({ summary: z.string() }),
  build: ({ text }) => ({ system: 'Summarize.', messages: [{ role: 'user', content: text }] }),
});

describe('scriptedModel', () => {
  it('answers from a list in order and records each call', async () => {
    const model = scriptedModel([{ items: ['咖啡'] }, '```json\n{"items":["tea"]}\n```']);

    const first = await model.generate(listItems, { text: '我喜欢咖啡' });
    const second = await model.generate(listItems, { text: 'I like tea' });

    expect(first.output).toEqual({ items: ['咖啡'] });
    expect(first.raw).toBe('{"items":["咖啡"]}');
    expect(second.output).toEqual({ items: ['tea'] });
    expect(model.calls.map((c) => c.input)).toEqual([{ text: '我喜欢咖啡' }, { text: 'I like tea' }]);
    expect(model.calls[0]!.prompt).toBe('list-items@1');
    expect(model.calls[0]!.system).toContain('"items"');
    expect(model.calls[0]!.messages).toEqual([{ role: 'user', content: '我喜欢咖啡' }]);
    expect(first.usage.outputTokens).toBe(countTokens('{"items":["咖啡"]}'));
    expect(first.usage.inputTokens).toBeGreaterThan(countTokens('我喜欢咖啡'));
    expect(model.remaining()).toBe(0);
    expect(model.usage.snapshot().byPrompt['list-items']).toMatchObject({ calls: 2, failures: 0 });
  });

  it('rejects malformed or off-schema answers like the real model', async () => {
    const model = scriptedModel(['{"items": [', { items: 'not a list' }]);
    const bad = await model.generate(listItems, { text: 'x' }).catch((e: unknown) => e);
    expect(EngramError.hasCode(bad, 'MODEL_OUTPUT_INVALID') && bad.details?.['raw']).toBe('{"items": [');
    await expect(model.generate(listItems, { text: 'x' })).rejects.toMatchObject({ code: 'MODEL_OUTPUT_INVALID' });
    expect(model.usage.snapshot().total.failures).toBe(2);
  });

  it('throws scripted errors and says when the script runs out', async () => {
    const model = scriptedModel([new EngramError('MODEL_TIMEOUT', 'slow')]);
    await expect(model.generate(listItems, { text: 'x' })).rejects.toMatchObject({ code: 'MODEL_TIMEOUT' });
    await expect(model.generate(listItems, { text: 'x' })).rejects.toMatchObject({ code: 'MODEL_FAILED', message: /no answer left/ });
    expect(model.calls[0]!.error).toBeInstanceOf(EngramError);
  });

  it('answers from a function or from lists keyed by prompt id', async () => {
    const byFunction = scriptedModel((promptId, input) =>
      promptId === 'summarize' ? { summary: `摘要: ${(input as { text: string }).text}` } : { items: [] },
    );
    expect((await byFunction.generate(summarize, { text: '你好' })).output).toEqual({ summary: '摘要: 你好' });

    const byPrompt = scriptedModel({ summarize: [{ summary: 's' }], 'list-items': [{ items: ['a'] }] });
    expect((await byPrompt.generate(listItems, { text: 'x' })).output).toEqual({ items: ['a'] });
    expect((await byPrompt.generate(summarize, { text: 'x' })).output).toEqual({ summary: 's' });
    expect(byPrompt.callsFor('summarize')).toHaveLength(1);
    expect(byPrompt.remaining()).toBe(0);
  });
});
