import type { MemoryKind } from '../domain/memory.js';

/** The demo's sample users: what each said, and what each later asks. */
export interface DemoMemory {
  kind: MemoryKind;
  content: string;
  importance?: number;
  /** Days from now when the event happens. */
  inDays?: number;
}

export interface DemoUser {
  id: string;
  label: string;
  memories: DemoMemory[];
  queries: string[];
}

export const DEMO_USERS: readonly DemoUser[] = [
  {
    id: 'li-ming',
    label: '中文',
    memories: [
      { kind: 'identity', content: '用户叫李明，是后端工程师', importance: 0.8 },
      { kind: 'event', content: '用户下周要去东京出差', importance: 0.7, inDays: 7 },
      { kind: 'preference', content: '用户喜欢猫，养了一只叫小白的猫', importance: 0.6 },
      { kind: 'plan', content: '用户决定缓存用 Redis', importance: 0.6 },
      { kind: 'preference', content: '用户不吃香菜', importance: 0.7 },
      { kind: 'identity', content: '用户住在上海', importance: 0.6 },
    ],
    // The last one is cross-lingual: an English question over Chinese memories.
    queries: ['周五去东京有什么推荐？', '推荐一些宠物用品', 'any pet food ideas?'],
  },
  {
    id: 'alice',
    label: 'English',
    memories: [
      { kind: 'identity', content: "The user's name is Alice", importance: 0.8 },
      { kind: 'identity', content: 'The user is a data scientist in Berlin', importance: 0.6 },
      { kind: 'preference', content: 'The user loves hiking in the Alps', importance: 0.6 },
      { kind: 'fact', content: 'The user is allergic to peanuts', importance: 0.9 },
      { kind: 'plan', content: 'The user plans to visit Tokyo in April', importance: 0.6 },
    ],
    queries: ['Can you suggest a snack for my trip?', '我周末去爬山带什么？'],
  },
];

/** Asked as alice about li-ming's life: must find nothing of li-ming's. */
export const ISOLATION_QUERIES = ['李明的猫叫什么？', 'What does Li Ming eat? Does he like cilantro?'];
