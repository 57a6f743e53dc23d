/**
 * Whether a text mentions a topic: as written, ignoring case, and for a topic that begins or ends
 * with a letter or digit of a spaced script, only as whole words: forgetting "ex" must not take
 * "next week" with it, nor "Al" "Alice". Chinese and Japanese have no spaces between words, so a
 * topic in them is found anywhere ("前女友" in "用户的前女友叫小美").
 */
export function mentionsTopic(text: string, topic: string): boolean {
  const needle = topic.trim().toLowerCase();
  if (needle === '') return false;
  const haystack = text.toLowerCase();
  const spacedEdge = (ch: string | undefined): boolean => ch !== undefined && /[\p{L}\p{N}]/u.test(ch) && !/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(ch);
  const startsSpaced = spacedEdge(needle[0]);
  const endsSpaced = spacedEdge(needle.at(-1));
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) {
    const before = haystack[at - 1];
    const after = haystack[at + needle.length];
    if (startsSpaced && spacedEdge(before)) continue;
    if (endsSpaced && spacedEdge(after)) continue;
    return true;
  }
  return false;
}
