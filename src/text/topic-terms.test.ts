import { describe, expect, it } from 'vitest';
import { indexTerms } from './segment.js';
import { holdsTerms } from './topic-terms.js';

const holds = (topic: string, text: string): boolean => holdsTerms(indexTerms(topic), new Set(indexTerms(text)));

describe('holdsTerms: every word of a topic, however it ends', () => {
  it.each([
    ['peanut allergy', 'The user is allergic to peanuts'],
    ['allergies', 'The user has a severe allergy to shellfish'],
    ['花生过敏', '用户对花生过敏'],
    ['猫', '用户喜欢猫'],
  ])('"%s" is in "%s"', (topic, text) => expect(holds(topic, text)).toBe(true));

  it.each([
    ['peanut allergy', 'The user loves peanut butter cookies'],
    ['car', 'The user takes care of his mother'],
    ['cook', 'The user bought a cookbook'],
    ['花生过敏', '用户对猫毛过敏'],
    ['', 'The user loves cats'],
  ])('"%s" is not in "%s"', (topic, text) => expect(holds(topic, text)).toBe(false));
});
