import { describe, expect, it } from 'vitest';
import { statesDietaryConstraint } from './dietary-constraint.js';

describe('statesDietaryConstraint', () => {
  it.each([
    '用户对花生过敏',
    '用户是素食者',
    '医生让用户少吃辣',
    '用户有高血压，医生让用户少吃盐',
    '医生说用户不要喝酒',
    '医生让用户戒酒',
    'The user is allergic to shellfish',
    'The user is lactose intolerant',
    "The user's doctor told them to cut down on salt",
    "The user's doctor told them to avoid sugar",
    "The user's dietitian said no more fried food",
  ])('a constraint: %s', (text) => {
    expect(statesDietaryConstraint(text)).toBe(true);
  });

  it.each([
    '用户喜欢吃辣',
    '医生让用户多喝水',
    '用户想少吃点零食',
    '用户的妈妈是医生，她喜欢吃辣',
    'The user loves spicy food',
    "The user's doctor told them to drink more water",
    'The user avoids crowds',
    "The user's doctor is named Dr. Lee and lives near the salt flats",
  ])('not a constraint: %s', (text) => {
    expect(statesDietaryConstraint(text)).toBe(false);
  });
});
