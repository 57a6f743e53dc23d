/**
 * Measures the no-model rule for "reinforcement by use" (pipelines/report-reply.ts) on a small
 * hand-labelled bilingual set: did the recalled memory actually shape the reply? Prints precision
 * and recall of the rule at its thresholds, with the bundled embedder.
 * Run: npx tsx bench/usage-rule.ts
 */
import { createBundledEmbedder } from '../src/embedders/bundled-embedder.js';
import { dot } from '../src/embedders/embedder.js';
import { replyTermsOf, usedBySimilarity, USAGE_RULE } from '../src/pipelines/report-reply.js';

/** [memory, reply, used?] — seed 001's examples first. */
export const LABELLED: Array<[string, string, boolean]> = [
  ['主人喜欢猫', '今天天气晴朗，适合出去走走。', false],
  ['主人很紧张', '别这么绷着，深呼吸，一切都会好的。', true],
  ['用户养了一只叫小白的猫', '小白这个年纪的猫适合吃幼猫粮。', true],
  ['用户不吃香菜', '这家店的牛肉面可以要求不放香菜。', true],
  ['用户不吃香菜', '明天上海有雨，记得带伞。', false],
  ['用户下周要去东京出差', '出差之余也可以去浅草寺逛逛，东京这个季节很舒服。', true],
  ['用户下周要去东京出差', 'Redis 更适合你的缓存场景。', false],
  ['用户决定缓存用 Redis', '既然你选了 Redis，可以开启持久化。', true],
  ['用户住在上海', '推荐你试试这款降噪耳机。', false],
  ['用户是后端工程师', '作为后端工程师，你可以先从 Go 的并发模型学起。', true],
  ['用户最近在考虑换工作', '换工作前可以先想清楚最看重什么。', true],
  ['用户喜欢拉面', '周末可以在家做个番茄炒蛋。', false],
  ['The user is allergic to peanuts', 'Since you are allergic to peanuts, try rice crackers.', true],
  ['The user is allergic to peanuts', 'The Alps are beautiful in June.', false],
  ['The user loves hiking in the Alps', 'For your next trip to the Alps, pack layers and good boots.', true],
  ['The user loves hiking in the Alps', 'Rice crackers make a good snack.', false],
  ["The user's name is Alice", 'Good morning, Alice!', true],
  ["The user's name is Alice", 'Here is the recipe you asked for.', false],
  ['The user is a data scientist in Berlin', 'As a data scientist you might enjoy this pandas trick.', true],
  ['The user plans to visit Tokyo in April', 'Cherry blossoms in Tokyo peak in early April, perfect timing.', true],
  ['The user plans to visit Tokyo in April', 'Your Python code has an off-by-one error.', false],
  ['The user has a dog named Rex', 'Rex might love a chew toy for his birthday.', true],
  ['The user has a dog named Rex', 'The meeting is at 3pm tomorrow.', false],
  ['The user prefers short answers', 'Yes.', false],
];

async function main(): Promise<void> {
  const embedder = createBundledEmbedder();
  const memories = await embedder.embed(LABELLED.map(([m]) => m));
  const replies = await embedder.embed(LABELLED.map(([, r]) => r));
  let tp = 0, fp = 0, fn = 0, tn = 0;
  const rows: string[] = [];
  LABELLED.forEach(([m, r, used], i) => {
    const cosine = dot(memories[i]!, replies[i]!);
    const said = usedBySimilarity(m, replyTermsOf(r), cosine);
    if (said && used) tp++;
    else if (said && !used) fp++;
    else if (!said && used) fn++;
    else tn++;
    rows.push(`${said === used ? ' ' : '✗'} ${used ? 'used  ' : 'unused'} cos=${cosine.toFixed(2)}  ${m} | ${r}`);
  });
  console.log(rows.join('\n'));
  console.log(`\nrule ${JSON.stringify(USAGE_RULE)} on ${LABELLED.length} labelled pairs (${embedder.id}):`);
  console.log(`precision ${(tp / Math.max(tp + fp, 1)).toFixed(2)}  recall ${(tp / Math.max(tp + fn, 1)).toFixed(2)}  accuracy ${((tp + tn) / LABELLED.length).toFixed(2)}  (tp ${tp} fp ${fp} fn ${fn} tn ${tn})`);
}

await main();
