import { z } from 'zod';
import { outputFormatOf } from './output-format.js';
import { definePrompt } from './prompt.js';
import { quoted, UNTRUSTED_RULE } from './untrusted.js';

const Message = z.object({ role: z.enum(['user', 'assistant', 'system']), content: z.string(), time: z.string() });

export const SummarizeEpisodeInput = z.object({
  messages: z.array(Message).min(1),
  /** The conversation's main language when already detected; the model follows the conversation otherwise. */
  language: z.enum(['zh', 'en']).optional(),
});
export type SummarizeEpisodeInput = z.infer<typeof SummarizeEpisodeInput>;

import { EpisodeSummary } from '../domain/episode.js';

export { EpisodeSummary };

/** The summary text seed 003 asks for when a conversation has no substance. */
export const SMALL_TALK_SUMMARY = { zh: '闲聊，无实质内容', en: 'Small talk, nothing of substance' } as const;

const SYSTEM = `You write the memory of ONE conversation between a user and an assistant, as a structured summary that is kept for later recall and used to update the user's profile.

Fields:
- summary: 2-3 sentences on what the conversation was about.
- topics: 3-5 short topic tags (a word or two each).
- userIntent: what the user wanted from this conversation (to vent, to decide, to get help with a task, …).
- emotionalTone: the user's mood in a few words (平静, 焦虑、犹豫, excited, frustrated, …).
- keyFacts: facts stated in the conversation that are worth remembering long term; [] when there are none.
- unresolved: the question left open at the end, or null when nothing was left open.

Rules:
- Write from the user's perspective: what the user said, wanted and felt. Leave out the assistant's opinions, advice and suggestions.
- keyFacts are objective facts only, one short sentence each; never guess or infer.
- Small talk with nothing of substance -> summary exactly "${SMALL_TALK_SUMMARY.zh}" (Chinese) or "${SMALL_TALK_SUMMARY.en}" (English), keyFacts [], unresolved null.
- Write every field in the user's language, the language of the conversation (Chinese in, Chinese out: "用户在考虑换工作"; English in, English out: "The user is thinking about changing jobs").
- ${UNTRUSTED_RULE}`;

const LANGUAGE_NAMES = { zh: 'Chinese', en: 'English' } as const;

/** Seed 003's summary prompt: one conversation -> summary, topics, intent, tone, key facts, open question. */
export const summarizeEpisodePrompt = definePrompt({
  id: 'summarize-episode',
  version: 3,
  outputFormat: outputFormatOf(EpisodeSummary),
  input: SummarizeEpisodeInput,
  output: EpisodeSummary,
  build: (input) => ({
    system: SYSTEM,
    messages: [
      {
        role: 'user',
        content: [
          input.language === undefined
            ? 'Language: the language the user wrote in.'
            : `Language: ${LANGUAGE_NAMES[input.language]} (the user's language).`,
          '',
          '## Conversation',
          input.messages.map((m) => `${m.time} ${m.role}: ${quoted(m.content)}`).join('\n'),
        ].join('\n'),
      },
    ],
  }),
});
