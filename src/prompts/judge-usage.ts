import { z } from 'zod';
import { definePrompt } from './prompt.js';
import { quoted, UNTRUSTED_RULE } from './untrusted.js';

export const JudgeUsageInput = z.object({
  userMessage: z.string(),
  reply: z.string(),
  /** The memories that were recalled into the assistant's context, under short aliases. */
  recalled: z.array(z.object({ alias: z.string().min(1), content: z.string() })).min(1),
});
export type JudgeUsageInput = z.infer<typeof JudgeUsageInput>;

export const JudgeUsageResult = z.object({
  /** Only the memories that shaped the reply; [] when none did. */
  used: z.array(z.object({ alias: z.string().min(1), reason: z.string().min(1) })),
});
export type JudgeUsageResult = z.infer<typeof JudgeUsageResult>;

const SYSTEM = `An assistant answered its user with some memories about the user recalled into its context. Decide which recalled memories it actually USED.

A memory counts as used only if it actually shaped the reply: the reply relies on it, refers to it, or would have been different without it. Being recalled, or being about a similar topic, is not use.
Examples:
- Recalled "主人喜欢猫", the conversation is about the weather and the reply never touches cats -> not used.
- Recalled "主人很紧张", the assistant says "别这么绷着" -> used.
- Recalled "The user is vegetarian", the assistant suggests a tofu dish instead of steak -> used.

Rules:
- List only the used memories, by their alias; [] when none was used. Never invent an alias.
- reason: one short sentence in the user's language (the language of the user message) saying how the memory shaped the reply.
- ${UNTRUSTED_RULE}`;

/** Seed 001's reinforcement by use: which recalled memories really shaped the assistant's reply. */
export const judgeUsagePrompt = definePrompt({
  id: 'judge-usage',
  version: 2,
  input: JudgeUsageInput,
  output: JudgeUsageResult,
  build: (input) => ({
    system: SYSTEM,
    messages: [
      {
        role: 'user',
        content: [
          '## RECALLED memories',
          input.recalled.map((m) => `[${m.alias}] ${quoted(m.content)}`).join('\n'),
          '',
          '## USER message',
          quoted(input.userMessage),
          '',
          '## ASSISTANT reply',
          quoted(input.reply),
        ].join('\n'),
      },
    ],
  }),
});
