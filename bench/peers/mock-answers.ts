/**
 * The mock model's answers: recognise which system and prompt a chat request comes from by its
 * prompt text, read the user's messages out of it, and answer in that prompt's JSON shape.
 * Every system gets memories from the same rule (`deriveMemories`), so they store comparable things.
 */

export interface ChatMessage {
  role: string;
  content: string;
}

export type PromptName = 'engram-extract' | 'engram-summarize-episode' | 'engram-update-profile' | 'mem0v2-facts' | 'mem0v2-update' | 'mem0v3-extract' | 'unknown';

export interface ChatAnswer {
  prompt: PromptName;
  json: unknown;
}

const MIN_WORDS = 5;

/**
 * One memory per sentence of at least five words, in the third person and the user's language
 * ("The user said: …", "用户说：…").
 * A plausible stand-in for an LLM's extraction: same input, same output, on every machine.
 */
export function deriveMemories(userText: string): string[] {
  const out: string[] = [];
  for (const raw of userText.split(/(?<=[.!?])\s+|(?<=[。！？])\s*|\n+/u)) {
    const sentence = raw.trim().replace(/[.!?。！？]+$/u, '');
    const chinese = /\p{Script=Han}/u.test(sentence);
    // Words: what spaces separate; in Chinese, which has no spaces, each character.
    const words = chinese ? (sentence.match(/\p{Script=Han}|[\p{L}\p{N}]+/gu) ?? []).length : sentence.split(/\s+/u).filter(Boolean).length;
    if (words < MIN_WORDS) continue;
    out.push(chinese ? `用户说：${sentence}` : `The user said: ${sentence}`);
  }
  return out;
}

const norm = (s: string): string => s.trim().toLowerCase();

export function answerChat(messages: readonly ChatMessage[], userTexts?: ReadonlySet<string>): ChatAnswer {
  const system = messages.find((m) => m.role === 'system')?.content ?? '';
  const user = messages.filter((m) => m.role === 'user').map((m) => m.content).join('\n');
  if (system.startsWith('You maintain a long-term memory of ONE user')) return { prompt: 'engram-extract', json: engramExtract(user) };
  if (system.startsWith('You write the memory of ONE conversation')) return { prompt: 'engram-summarize-episode', json: engramSummary(user) };
  if (system.startsWith('You keep the core profile of ONE user')) return { prompt: 'engram-update-profile', json: engramProfile(user) };
  if (system.includes('Personal Information Organizer') && system.includes('extract relevant pieces of information')) {
    return { prompt: 'mem0v2-facts', json: mem0v2Facts(user, userTexts) };
  }
  if (user.includes('You are a smart memory manager') && user.includes('Compare newly retrieved facts')) {
    return { prompt: 'mem0v2-update', json: mem0v2Update(user) };
  }
  const v3 = mem0v3Extract(system, user);
  if (v3) return { prompt: 'mem0v3-extract', json: v3 };
  return { prompt: 'unknown', json: {} };
}

/** Engram quotes untrusted text in its prompts as JSON strings (prompts/untrusted.ts); older versions did not. */
const unquote = (text: string): string => (text.startsWith('"') ? (JSON.parse(text) as string) : text);

/** Engram's extract-memories@5: `[m1] 2023-05-08T13:56 user: "text"` lines under "## NEW messages". */
function engramExtract(user: string): unknown {
  const section = (title: string): string[] => {
    const start = user.indexOf(`## ${title}`);
    if (start < 0) return [];
    const rest = user.slice(user.indexOf('\n', start) + 1);
    const end = rest.indexOf('\n## ');
    return (end < 0 ? rest : rest.slice(0, end)).split('\n').filter((l) => l.trim().length > 0);
  };
  const existing = new Map<string, string>();
  for (const line of section('EXISTING memories')) {
    const m = /^\[([^\]]+)\] \([^)]*\) (.*)$/.exec(line);
    if (m) existing.set(norm(unquote(m[2]!)), m[1]!);
  }
  const operations: unknown[] = [];
  const said: string[] = [];
  for (const line of section('NEW messages')) {
    const m = /^\[([^\]]+)\] \S+ (user|assistant|system): (.*)$/.exec(line);
    if (!m || m[2] !== 'user') continue;
    const text = unquote(m[3]!);
    said.push(text);
    for (const content of deriveMemories(text)) {
      const alias = existing.get(norm(content));
      if (alias) operations.push({ op: 'reinforce', target: alias, reason: 'said again' });
      else operations.push({ op: 'add', kind: 'fact', content, importance: 0.5, sourceMessageIds: [m[1]] });
      existing.set(norm(content), alias ?? '');
    }
  }
  // Asked for the episode too (extract-memories@5 on a quiet batch): the same summary the separate prompt gets.
  const episode = user.includes('\n## EPISODE\n') ? { episode: summaryOf(said) } : {};
  if (operations.length === 0) return { operations: [{ op: 'skip', reason: 'nothing durable' }], reason: 'Nothing worth remembering.', ...episode };
  return { operations, reason: `Remembered ${operations.length} statements of the user.`, ...episode };
}

/** Engram's summarize-episode@1: `<time> user: text` lines under "## Conversation". */
function engramSummary(user: string): unknown {
  const start = user.indexOf('## Conversation\n');
  const lines = start < 0 ? [] : user.slice(start + '## Conversation\n'.length).split('\n');
  return summaryOf(lines.map((l) => /^\S+ user: (.*)$/.exec(l)?.[1]).filter((t): t is string => t !== undefined).map(unquote));
}

function summaryOf(said: readonly string[]): unknown {
  const facts = said.flatMap(deriveMemories);
  const words = [...new Set(said.join(' ').toLowerCase().match(/\p{L}{6,}/gu) ?? [])].slice(0, 3);
  if (facts.length === 0) return { summary: 'Small talk, nothing of substance', topics: ['small talk'], userIntent: 'to chat', emotionalTone: 'calm', keyFacts: [], unresolved: null };
  return {
    summary: `${facts[0]!}.${facts.length > 1 ? ` ${facts[facts.length - 1]!}.` : ''}`,
    topics: words.length > 0 ? words : ['conversation'],
    userIntent: 'to share news and catch up',
    emotionalTone: 'calm',
    keyFacts: facts.slice(0, 5),
    unresolved: null,
  };
}

/** Engram's update-profile@1: the portrait grows by the new summaries' first sentences. */
function engramProfile(user: string): unknown {
  const section = (title: string): string => {
    const start = user.indexOf(`## ${title}`);
    if (start < 0) return '';
    const rest = user.slice(user.indexOf('\n', start) + 1);
    const end = rest.indexOf('\n## ');
    return (end < 0 ? rest : rest.slice(0, end)).trim();
  };
  const current = unquote(section('CURRENT profile'));
  const fresh = section('NEW conversation summaries').split('\n').filter((l) => l.trim().length > 0).slice(0, 3).join(' ');
  const narrative = [current && !current.startsWith('(') ? current : '', fresh].filter(Boolean).join('\n\n').slice(-3000) || 'Little is known about the user yet.';
  return { narrative, basicInfo: {}, changes: 'Added what the latest conversations said.' };
}

/**
 * mem0 2.x fact extraction: the messages' contents joined by newlines, without roles, after
 * "Input:". User lines are recognised by `userTexts`; without it every line counts.
 */
function mem0v2Facts(user: string, userTexts?: ReadonlySet<string>): unknown {
  const input = user.slice(user.lastIndexOf('Input:\n') + 'Input:\n'.length);
  const lines = input.split('\n').filter((l) => l.trim().length > 0 && (!userTexts || userTexts.has(l.trim())));
  return { facts: lines.flatMap(deriveMemories) };
}

/** mem0 2.x update decision: existing memories kept (NONE), each fact not already stored added. */
function mem0v2Update(user: string): unknown {
  const between = (a: string, b: string): string => {
    const start = user.indexOf(a);
    const end = user.indexOf(b, start);
    if (start < 0 || end < 0) throw new Error(`mem0 2.x update prompt changed: "${a}" … "${b}" not found`);
    return user.slice(start + a.length, end).trim();
  };
  const old = JSON.parse(between('You have to update it in the following format only:', 'The new retrieved facts are mentioned below')) as Array<{ id: string; text: string }>;
  const facts = JSON.parse(between('should be added, updated, or deleted in the memory.', 'Follow the instruction mentioned below')) as string[];
  const known = new Set(old.map((m) => norm(m.text)));
  const memory: Array<{ id: string; text: string; event: string }> = old.map((m) => ({ id: m.id, text: m.text, event: 'NONE' }));
  let next = old.length;
  for (const fact of facts) {
    if (known.has(norm(fact))) continue;
    known.add(norm(fact));
    memory.push({ id: String(next++), text: fact, event: 'ADD' });
  }
  return { memory };
}

/**
 * mem0 3.x additive extraction: "role: content" lines under "## New Messages"; the answer is
 * `{"memory":[{"id","text","attributed_to"}]}` (mem0 itself skips texts already stored, by hash).
 */
function mem0v3Extract(system: string, user: string): unknown {
  if (!system.includes('You are a Memory Extractor')) return undefined;
  const start = user.indexOf('## New Messages\n');
  if (start < 0) throw new Error('mem0 3.x extraction prompt changed: "## New Messages" not found');
  const rest = user.slice(start + '## New Messages\n'.length);
  const end = rest.indexOf('\n\n## ');
  const lines = (end < 0 ? rest : rest.slice(0, end)).split('\n');
  const texts = lines.filter((l) => l.startsWith('user: ')).flatMap((l) => deriveMemories(l.slice('user: '.length)));
  return { memory: texts.map((text, i) => ({ id: String(i), text, attributed_to: 'user' })) };
}
