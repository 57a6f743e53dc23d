import type { MessageRole } from '../domain/conversation.js';

/**
 * The demo's two users and what they say. Nothing is written as a memory directly: every step is
 * appended as conversation messages and then extracted, so what the demo shows is what the
 * remembering pipeline makes of the words. The lines are the design documents' examples, worded
 * as explicit statements, since that is all the heuristic extractor (no LLM) reads.
 */
export interface DemoTurn {
  role: MessageRole;
  text: string;
}

/** One `appendMessages` followed by one `extract`. */
export interface DemoStep {
  sessionId: string;
  /** What the step shows, in a few words. */
  label: string;
  turns: DemoTurn[];
}

export interface DemoUser {
  id: string;
  label: string;
  /** For the extractor's dates ("明天下午三点") and for printing due times. */
  timeZone: string;
  steps: DemoStep[];
  /** What the user asks later: recall and the context block for each. */
  queries: string[];
}

const user = (text: string): DemoTurn => ({ role: 'user', text });
const assistant = (text: string): DemoTurn => ({ role: 'assistant', text });

export const DEMO_USERS: readonly DemoUser[] = [
  {
    id: 'li-ming',
    label: '中文',
    timeZone: 'Asia/Shanghai',
    steps: [
      { sessionId: 'chat-1', label: '闲聊 small talk', turns: [user('你好'), assistant('你好！有什么可以帮你？'), user('谢谢'), user('哈哈')] },
      {
        sessionId: 'chat-2',
        label: '自我介绍 who I am',
        turns: [
          user('我叫李明，我是后端工程师'),
          assistant('你好李明！'),
          user('我住在北京'),
          user('我下周要去东京出差'),
          user('我喜欢猫，我养了一只猫叫小白'),
        ],
      },
      { sessionId: 'chat-3', label: '提问 a question only', turns: [user('缓存方案用 Redis 还是 Memcached？'), assistant('看场景：需要持久化和丰富的数据结构选 Redis，纯缓存选 Memcached。')] },
      { sessionId: 'chat-3', label: '决定 the decision: only the new message is mined', turns: [user('我决定用 Redis 了')] },
      { sessionId: 'chat-4', label: '更正 a correction', turns: [user('不对，我现在住在上海')] },
      { sessionId: 'chat-4', label: '重复 said again', turns: [user('我真的很喜欢猫')] },
      { sessionId: 'chat-4', label: '待办 a todo', turns: [user('提醒我明天下午三点开会'), assistant('好的，明天下午三点提醒你开会。')] },
    ],
    // The third is cross-lingual: an English question over Chinese memories.
    // The last one is answered by a conversation excerpt: the assistant's advice was never a memory.
    queries: ['周五去东京有什么推荐？', '推荐一些宠物用品', 'any pet food ideas?', '缓存选 Redis 还是 Memcached，之前怎么说的？'],
  },
  {
    id: 'alice',
    label: 'English',
    timeZone: 'Europe/Berlin',
    steps: [
      { sessionId: 'chat-1', label: 'small talk', turns: [user('hi'), assistant('Hello! How can I help?'), user('thanks!')] },
      {
        sessionId: 'chat-2',
        label: 'who I am',
        turns: [user("My name is Alice. I'm a data scientist and I live in Berlin."), user('I love hiking in the Alps'), user("I'm allergic to peanuts")],
      },
      { sessionId: 'chat-3', label: 'a todo', turns: [user('Remind me to call mom tomorrow at 5pm'), assistant("Sure, I'll remind you tomorrow at 5pm.")] },
      { sessionId: 'chat-3', label: 'a correction', turns: [user('Actually, I moved to Munich')] },
    ],
    // The last one is cross-lingual: a Chinese question over English memories.
    queries: ['Can you suggest a snack for my trip?', '我周末去爬山带什么？'],
  },
];

/** Asked as alice about li-ming's life: must find nothing of li-ming's. */
export const ISOLATION_QUERIES = ['李明的猫叫什么？', 'Where does Li Ming live? Is he going to Tokyo?'];

/** Stable ids, so running the demo twice on one database appends nothing new. */
export function demoMessageId(userId: string, step: DemoStep, stepIndex: number, turnIndex: number): string {
  return `demo-${userId}-${step.sessionId}-${stepIndex + 1}.${turnIndex + 1}`;
}
