import { z } from 'zod';
import { outputFormatOf } from './output-format.js';
import { definePrompt } from './prompt.js';
import { quoted, UNTRUSTED_RULE } from './untrusted.js';

export const UpdateProfileInput = z.object({
  /** The profile as it stands; "" (or seed 003's "新用户，尚无信息") for a new user. */
  currentNarrative: z.string(),
  /** The few structured fields kept beside the narrative (name, occupation, …). */
  basicInfo: z.record(z.string(), z.string()),
  /** Session summaries since the last update, oldest first. */
  newEpisodes: z.array(z.object({ date: z.string(), summary: z.string(), keyFacts: z.array(z.string()) })),
  /** Important memories written since the last update. */
  newFacts: z.array(z.object({ kind: z.string(), content: z.string(), date: z.string() })),
  /** When set, the profile is rewritten without anything about this topic (seed 003 ForgetTopic). */
  forgetTopic: z.string().trim().min(1).optional(),
});
export type UpdateProfileInput = z.infer<typeof UpdateProfileInput>;

/** Structured basics: a few well-known keys, any other key allowed, every value a string. */
export const BasicInfo = z
  .object({
    name: z.string().optional(),
    occupation: z.string().optional(),
    location: z.string().optional(),
  })
  .catchall(z.string());
export type BasicInfo = z.infer<typeof BasicInfo>;

export const ProfileUpdate = z.object({
  /** 3-5 paragraphs of natural prose, no lists. */
  narrative: z.string().min(1),
  basicInfo: BasicInfo,
  /** One sentence: what changed in this update. */
  changes: z.string().min(1),
});
export type ProfileUpdate = z.infer<typeof ProfileUpdate>;

/** Seed 003's cold-start narrative, per language. */
export const EMPTY_PROFILE = { zh: '新用户，尚无信息', en: 'New user, no information yet.' } as const;

const SYSTEM = `You keep the core profile of ONE user: a natural-language portrait that an assistant always carries, so it talks to the user with an understanding of who they are.
Update the CURRENT profile with the NEW conversation summaries and NEW memories.

Rules:
- Update the profile with the new information. When new information conflicts with old, the new wins, but keep the trace of the change ("之前在A公司工作，最近换到了B公司"; "used to live in Berlin, moved to Lisbon in March").
- Never drop old information that nothing new refutes. A change over time is not a refutation of the past: keep both, with their times.
- narrative: 3-5 short paragraphs of natural prose (who they are and what they do; personality and how they like to communicate; current situation; long-term interests and concerns). No lists, no headings, no bullet points.
- Write only what the inputs support; never invent or guess. Leave out the assistant's opinions and one-off small talk.
- basicInfo: the few stable basics as short strings (name, occupation, location, and e.g. birthday or family when known). Keep known values unless corrected; never fill a field with a guess.
- changes: one sentence on what changed in this update ("nothing changed" when nothing did).
- Cold start: with no current profile and nothing substantial to add, narrative is exactly "${EMPTY_PROFILE.zh}" (Chinese) or "${EMPTY_PROFILE.en}" (English).
- Write the narrative, the basicInfo values and changes in the user's language: the language of the new summaries and memories (of the current profile when there are none). Chinese in, Chinese out.`;

const FORGET_RULE = `- FORGET: the user asked you to forget the topic named below. Rewrite the profile WITHOUT anything about it: remove it from the narrative and from basicInfo, ignore it in the new summaries and memories, and do not hint that something was removed. In changes, say only that a topic was forgotten, without naming it or its details.`;

function isEmptyProfile(narrative: string): boolean {
  const text = narrative.trim();
  return text === '' || text === EMPTY_PROFILE.zh || text === EMPTY_PROFILE.en;
}

/** Seed 003's core-profile update: current narrative + new summaries and memories -> new narrative. */
export const updateProfilePrompt = definePrompt({
  id: 'update-profile',
  version: 3,
  outputFormat: outputFormatOf(ProfileUpdate),
  input: UpdateProfileInput,
  output: ProfileUpdate,
  build: (input) => {
    const info = Object.entries(input.basicInfo);
    return {
      system: `${input.forgetTopic === undefined ? SYSTEM : `${SYSTEM}\n${FORGET_RULE}`}\n${UNTRUSTED_RULE}`,
      messages: [
        {
          role: 'user',
          content: [
            '## CURRENT profile',
            isEmptyProfile(input.currentNarrative) ? '(new user: no profile yet)' : quoted(input.currentNarrative.trim()),
            '',
            '## CURRENT basicInfo',
            info.length === 0 ? '(none)' : info.map(([key, value]) => `${quoted(key)}: ${quoted(value)}`).join('\n'),
            '',
            '## NEW conversation summaries (oldest first)',
            input.newEpisodes.length === 0
              ? '(none)'
              : input.newEpisodes
                  .map((e) => [`- ${e.date}: ${quoted(e.summary)}`, ...e.keyFacts.map((f) => `  fact: ${quoted(f)}`)].join('\n'))
                  .join('\n'),
            '',
            '## NEW memories',
            input.newFacts.length === 0 ? '(none)' : input.newFacts.map((f) => `- (${f.kind}, ${f.date}) ${quoted(f.content)}`).join('\n'),
            ...(input.forgetTopic === undefined ? [] : ['', '## FORGET this topic', quoted(input.forgetTopic)]),
          ].join('\n'),
        },
      ],
    };
  },
});
