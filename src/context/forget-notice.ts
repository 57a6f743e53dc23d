import type { Language } from '../text/language.js';

/**
 * What the model is told, instead of the memories, on the turn where the user asks it to forget a
 * topic: the request is carried out as the turn is recorded, so the reply should confirm it
 * briefly and repeat nothing about it (a reply retelling the details would be stored).
 */
export function forgetNotice(topic: string, language: Language, options: { time?: boolean } = {}): string {
  // "forget everything I told you yesterday": what was said then, not a topic.
  if (options.time) {
    return language === 'zh'
      ? `## 关于用户的记忆\n用户要求忘掉${topic}说过的话。那时的对话记录和从中记住的事会在这次回复后删除。简短确认即可，不要复述或追问其中的细节。`
      : `## What you remember about the user\nThe user asked you to forget what they said ${topic}. Those messages and what was remembered from them are removed once you reply. Confirm briefly; do not repeat or ask about any of it.`;
  }
  return language === 'zh'
    ? `## 关于用户的记忆\n用户要求忘掉关于「${topic}」的事。相关的记忆和对话记录会在这次回复后删除。简短确认即可，不要复述或追问其中的细节。`
    : `## What you remember about the user\nThe user asked you to forget what they told you about "${topic}". Those memories and messages are removed once you reply. Confirm briefly; do not repeat or ask about any of it.`;
}
