import { z } from 'zod';
import { ExtractionResult } from '../domain/operations.js';
import { MEMORY_KINDS } from '../domain/memory.js';
import { outputFormatOf } from './output-format.js';
import { definePrompt } from './prompt.js';
import { quoted, UNTRUSTED_RULE } from './untrusted.js';

const Line = z.object({ ref: z.string(), role: z.enum(['user', 'assistant', 'system']), content: z.string(), time: z.string() });

export const ExtractMemoriesInput = z.object({
  /** ISO time of the newest message: the reference for "tomorrow", "下周". */
  now: z.string(),
  timeZone: z.string(),
  /** Related memories already stored, under short aliases. */
  existing: z.array(z.object({ alias: z.string(), kind: z.string(), content: z.string(), date: z.string() })),
  /** Messages before the new ones: for understanding only. */
  context: z.array(Line),
  /** The new messages: the only ones to extract from. */
  messages: z.array(Line).min(1),
  /** Also summarise the new messages as an episode (seed 003's fields). */
  summarize: z.boolean().default(false),
});
export type ExtractMemoriesInput = z.infer<typeof ExtractMemoriesInput>;

const SYSTEM = `You maintain a long-term memory of ONE user from their conversations with an assistant.
Read the NEW messages and decide what to remember, comparing with the EXISTING memories.

Remember only durable information about the user: identity (name, job, home, family), preferences, facts about their life and work, people they know, events with a time, plans and decisions, todos, habits (pattern).
Ignore greetings, thanks, small talk, the assistant's own suggestions, and anything said only in CONTEXT (context is for understanding; never extract from it).

Rules:
- One self-contained sentence per memory, in the third person, in the language the user wrote in (Chinese in, Chinese out: "用户喜欢猫"; English in, English out: "The user loves cats").
- Make times absolute when you can ("下周" said on 2026-03-02 -> happenedAt 2026-03-09). In content keep the user's wording and put the date a relative time names right after it, so the memory stays true next month: "用户明天（2026年3月3日）下午三点开会", "The user flies to Tokyo next Friday (2026-03-06)".
- Already remembered and said again or confirmed -> "reinforce" that alias. Never add a duplicate.
- New details about an existing memory -> "update" it with the new FULL content.
- The user corrects a wrong memory -> "update" it (or "delete" it when it is simply wrong) and say why.
- Something that holds one value changed (their job and workplace, home, a favourite of a kind: "我跳槽到腾讯了", "my favorite movie is now Oppenheimer") -> "update" the memory holding the old value, dropping what went with it only ("a nurse at Swedish hospital" -> "a school nurse at Lincoln Elementary"). Said again with fewer details ("i live in seattle") -> "reinforce"; keep the details.
- A pet or person of the user's who died -> "update" the memory of them to say so, with the time ("用户的猫咪咪上周（2026年11月16日那一周）去世了"); never leave them remembered as alive beside it.
- A change over time is not a contradiction: "was tense ten days ago" and "is relaxed now" both stand, as separate memories with their times.
- Something to do with a time -> add kind "todo" with todo.content (what to do) and todo.dueText (the time phrase as said, with its repeat when it repeats: "每天早上八点", "every Monday at 9am", and the repeat's end or span when said: "每天早上八点，到周五为止", "every day next week", "for the next 5 days"). A repeating todo names no date in its content: "用户每天早上八点要吃药". A reminder asked for at another time than an hour ahead -> also todo.remindText, as said: how far ahead ("提前半小时", "前一天晚上", "a day before") or a time of its own ("下周一", "next Monday"); the task is what the reminder is for ("明天下午三点开会，提前半小时提醒我": content "开会", dueText "明天下午三点", remindText "提前半小时"; "我要在三月前续签护照，下周提醒我": content "续签护照", dueText "三月前", remindText "下周").
- An existing todo moved ("明天的会改到下午四点", "move the standup to 10am") -> "update" it with the new FULL content and todo.dueText (the new time as said: "下午四点", "10am"), or only todo.remindText when only its reminder moves ("提醒改成提前一天"); a todo called off or cancelled -> "delete" it; a todo the user says is done ("房租交了", "I've paid the rent") -> "update" it with its content as it is and todo.done: true (a repeating one is done this time only; never "delete" it for that).
- The user asks you to forget something ("忘掉我前女友的事", "刘强的事你就当没听过吧", "forget where I live", "I don't want you to remember my address anymore") -> add {"topic": the thing as the user named it ("前女友", "刘强", "where I live", "my address"; a name, not a pronoun: "Sarah and I broke up, forget her" -> "Sarah"), "ref": the asking message's ref} to "forget", and remember nothing about it. Not a request to forget: comfort and idioms ("忘了吧，别难过", "forget about work this weekend"), the user forgetting something themselves ("我忘了带钥匙"), "never mind" ("forget it"), or a correction ("forget the party, it's moved to Sunday" updates the party).
- Refer to existing memories only by their alias; refer to new messages by their ref in sourceMessageIds.
- When a memory you add or update supports, contradicts or refines an EXISTING one, say so in its "relations" ([{"type":"supports","target":"<alias>"}]; "refines": adds detail to it; "contradicts": both cannot be true and the user did not correct either). A correction is an "update", not a relation.
- importance: 0.9 identity/core facts, 0.7 lasting preferences and plans, 0.5 ordinary facts, 0.3 minor details.
- Nothing worth remembering -> operations: [{"op":"skip","reason":"..."}].
- reason: one short sentence in the user's language saying what you did.
- ${UNTRUSTED_RULE}
Kinds: ${MEMORY_KINDS.filter((k) => k !== 'episode' && k !== 'system' && k !== 'skill').join(', ')}.`;

function lines(items: ReadonlyArray<z.infer<typeof Line>>): string {
  return items.map((m) => `[${m.ref}] ${m.time} ${m.role}: ${quoted(m.content)}`).join('\n');
}

/** Seed 002's extraction prompt with seed 001's operations (ADD/UPDATE/DELETE/BOOST/SKIP); generated from the schema. */
const OUTPUT_FORMAT = outputFormatOf(ExtractionResult);

const EPISODE = `## EPISODE
Also summarise the NEW messages in "episode", from the user's perspective, in their language:
summary (2-3 sentences), topics (3-5 tags), userIntent (what they wanted), emotionalTone (their mood),
keyFacts (objective facts worth keeping; [] if none), unresolved (the open question, or null).
No opinions of the assistant, no guesses. Small talk: summary "闲聊，无实质内容" / "Small talk, nothing of substance".`;

export const extractMemoriesPrompt = definePrompt({
  id: 'extract-memories',
  version: 16,
  input: ExtractMemoriesInput,
  output: ExtractionResult,
  outputFormat: OUTPUT_FORMAT,
  build: (input) => ({
    system: SYSTEM,
    messages: [
      {
        role: 'user',
        content: [
          `Now: ${input.now} (${input.timeZone})`,
          '',
          '## EXISTING memories',
          input.existing.length === 0 ? '(none)' : input.existing.map((m) => `[${m.alias}] (${m.kind}, ${m.date}) ${quoted(m.content)}`).join('\n'),
          '',
          '## CONTEXT (do not extract from here)',
          input.context.length === 0 ? '(none)' : lines(input.context),
          '',
          '## NEW messages (extract from here)',
          lines(input.messages),
          ...(input.summarize ? ['', EPISODE] : []),
        ].join('\n'),
      },
    ],
  }),
});
