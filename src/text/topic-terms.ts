/**
 * Whether a text holds every term of a topic (both as `indexTerms` gives them). An English stem
 * matches another that differs only in its ending: the stemmer leaves "allergy" as "allergi" and
 * "allergic" as "allerg", so forgetting "peanut allergy" missed "The user is allergic to peanuts".
 * Only stems of five letters or more, two letters apart at most: "car" is not "care", "cook" not
 * "cookbook".
 */
export function holdsTerms(topicTerms: readonly string[], textTerms: ReadonlySet<string>): boolean {
  if (topicTerms.length === 0) return false;
  return topicTerms.every((t) => textTerms.has(t) || (LATIN.test(t) && [...textTerms].some((o) => sameStem(t, o))));
}

const LATIN = /^[a-z]+$/u;

function sameStem(a: string, b: string): boolean {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  return short.length >= 5 && long.length - short.length <= 2 && LATIN.test(long) && long.startsWith(short);
}
