/**
 * Seed 000's promise, asked the ways people ask it: a user who likes cats, then eight questions
 * about pets and three about something else, in Chinese and in English, through `context()` with
 * the bundled embedder. Prints which pet questions bring the cat back and which other questions
 * wrongly do. A probe of the offline embedder's reach, not a test (its figures are in the results).
 *
 *   npx tsx bench/pet-questions.ts
 */
import { createBundledEmbedder } from '../src/embedders/bundled-embedder.js';
import { testMemory } from '../src/testing/test-memory.js';

const embedder = createBundledEmbedder();
const SETS = {
  zh: {
    facts: ['用户喜欢猫', '用户下周要去东京出差', '用户是一名程序员', '用户不吃香菜', '用户住在上海'],
    cat: '用户喜欢猫',
    pets: ['推荐一些宠物用品', '我想养宠物，有什么建议？', '养什么宠物好？', '周末能带宠物去哪玩', '宠物生病了怎么办', '给宠物买什么玩具好', '我想领养一只小动物', '宠物店在哪里'],
    other: ['今天股市怎么样？', '帮我写一段Python代码', '明天天气如何'],
  },
  en: {
    facts: ['The user loves cats', 'The user is going to Tokyo on a business trip next week', 'The user is a programmer', 'The user does not eat cilantro', 'The user lives in Shanghai'],
    cat: 'The user loves cats',
    pets: ['Recommend some pet supplies', 'I want to get a pet, any advice?', 'What pet should I adopt?', 'Where can I take my pet this weekend?', 'My pet is sick, what should I do?', 'What toys should I buy for my pet?', 'I want to adopt a small animal', 'Where is the nearest pet shop?'],
    other: ['How is the stock market today?', 'Write me some Python code', 'What is the weather tomorrow?'],
  },
} as const;

for (const [language, set] of Object.entries(SETS)) {
  const memory = testMemory({ embedder });
  for (const content of set.facts) await memory.add({ userId: 'u', kind: 'fact', content });
  const brings = async (query: string): Promise<boolean> => (await memory.context({ userId: 'u', query })).text.includes(set.cat);
  let found = 0;
  for (const q of set.pets) {
    const hit = await brings(q);
    found += hit ? 1 : 0;
    console.log(`${language} pet    ${hit ? 'cat  ' : 'no cat'} ${q}`);
  }
  let wrong = 0;
  for (const q of set.other) {
    const hit = await brings(q);
    wrong += hit ? 1 : 0;
    console.log(`${language} other  ${hit ? 'cat! ' : 'no cat'} ${q}`);
  }
  console.log(`${language}: the cat for ${found} of ${set.pets.length} pet questions, and for ${wrong} of ${set.other.length} others`);
  await memory.close();
}
