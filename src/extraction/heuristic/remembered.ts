import { holdsCredential } from '../credential.js';
import { thirdPerson, thirdSingular, type Pattern } from './candidate.js';
import { matchTables, type Match } from './match.js';

/*
 * What the user asked outright to be remembered ("记住我的车牌号是沪A12345", "Remember that my
 * anniversary is on June 12"), when no row of the pattern tables reads it: kept as said, in the
 * third person. Only behind such a request: "我的车牌号是沪A12345" said in passing may be anything,
 * asked to be remembered it is what the user wants kept.
 */

const END_ZH = '[。.!！~～]*$';
const END_EN = '[.!~]*$';
/** Credentials are not kept, asked or not (credential.ts); the plan would reject them anyway. */
const kept = <T>(text: string, value: T): T | undefined => (holdsCredential(text) ? undefined : value);

const ZH_REMEMBERED: readonly Pattern[] = [
  {
    slot: 'noted', kind: 'fact', importance: 0.8,
    re: new RegExp(`^我的?(.{1,12}?)(是|叫|在)(.{1,60}?)${END_ZH}`, 'u'),
    build: (m) => kept(m[0]!, { content: `用户的${thirdPerson(m[1]!, 'zh')}${m[2]}${thirdPerson(m[3]!, 'zh')}`, value: m[1]! }),
  },
  {
    slot: 'noted', kind: 'fact', importance: 0.8,
    // Not a thing named and nothing said of it ("你能记住我的生日吗", "…我说的话吗"): a question about Engram.
    re: new RegExp(`^我(?!的)(?!.{0,8}的\\p{Script=Han}{1,6}${END_ZH})(.{2,60}?)${END_ZH}`, 'u'),
    build: (m) => kept(m[0]!, { content: `用户${thirdPerson(m[1]!, 'zh')}`, value: m[1]! }),
  },
];

const EN_REMEMBERED: readonly Pattern[] = [
  {
    slot: 'noted', kind: 'fact', importance: 0.8,
    re: new RegExp(`^my (.{1,40}?) (is|are) (.{1,100}?)${END_EN}`, 'iu'),
    build: (m) => kept(m[0]!, { content: `The user's ${thirdPerson(m[1]!, 'en')} ${m[2]!.toLowerCase()} ${thirdPerson(m[3]!, 'en')}`, value: m[1]! }),
  },
  {
    slot: 'noted', kind: 'fact', importance: 0.8,
    re: new RegExp(`^I(?:'m| am|m) (?!.*\\byou)(.{2,100}?)${END_EN}`, 'iu'),
    build: (m) => kept(m[0]!, { content: `The user is ${thirdPerson(m[1]!, 'en')}`, value: m[1]! }),
  },
  {
    slot: 'noted', kind: 'fact', importance: 0.8,
    // A present-tense verb only: what was ("I was…", "I had…") is no standing fact, and what is said to "you" is no fact of the user's.
    re: new RegExp(`^I (?!(?:was|were|had|did|used|said|told|went|got|made|thought|knew|saw|came|took|gave|felt|left|meant)\\b|\\w+ed\\b)(?!.*\\byou)([a-z]+(?: .{1,100}?)?)${END_EN}`, 'iu'),
    build: (m) => kept(m[0]!, { content: `The user ${thirdSingular(thirdPerson(m[1]!, 'en'))}`, value: m[1]! }),
  },
];

const TABLES = [['zh', ZH_REMEMBERED], ['en', EN_REMEMBERED]] as const;

/** A statement asked to be remembered, read as said; undefined when it is not a first-person statement. */
export function matchRemembered(text: string): Match | undefined {
  return matchTables(text, TABLES);
}
