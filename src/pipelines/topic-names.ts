/**
 * The names the forgotten memories give the topic: "用户的前女友叫小美" names 前女友 小美, "The user's ex is
 * named Sarah" and "The user's ex, Sarah, …" name "ex" Sarah. Forgetting "my ex" is forgetting Sarah:
 * "小美喜欢吃日料" would otherwise keep coming back as an excerpt.
 */
export function namesOfTopic(topic: string, contents: readonly string[]): string[] {
  const t = topic.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
  // Only a name given as a name: "叫", "named", "called", or set off by commas ("The user's ex, Sarah,
  // …"). "是" and "is" give what someone is as often ("用户的前女友是护士", "The user's ex is
  // Canadian", "The user's birthday is March 3"), and forgetting that word everywhere erased others.
  const patterns = [
    new RegExp(`${t}(?:的名字)?(?:叫做?|名叫)([\\p{Script=Han}]{2,4}?|\\p{Lu}\\p{Ll}+)(?=[，。,、；;\\s]|$|[是在和也今去喜])`, 'u'),
    new RegExp(`\\b${t}\\b(?:,\\s+|\\s+(?:is\\s+)?(?:named|called)\\s+)(\\p{Lu}\\p{Ll}+)`, 'u'),
  ];
  const names = new Set<string>();
  for (const content of contents) {
    for (const re of patterns) {
      const name = re.exec(content)?.[1];
      if (name && name !== topic && !/^(?:The|User|They|He|She|用户)$/u.test(name)) names.add(name);
    }
  }
  return [...names];
}
