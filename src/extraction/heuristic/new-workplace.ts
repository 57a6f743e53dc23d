/**
 * Where the user works now, said bare after a job said over ("我换了份工作，现在在京东", "I quit my job,
 * now at Costco"): the clause as the employer rows read it ("我现在在京东工作"). Said with no job news
 * before it, "现在在京东" is only where the user is.
 */
const NOW_AT_ZH = /^我?(?:现在|目前)(?:已经)?在([^，,在]{1,20}?)(?:了|啦)?$/u;
const NOW_AT_EN = /^(?:and )?(?:I'm |I am |im )?now (?:at|with) (.+?)[.!]*$/iu;

export function newWorkplace(clause: string): string | undefined {
  const zh = NOW_AT_ZH.exec(clause);
  if (zh) return `我现在在${zh[1]}工作`;
  const en = NOW_AT_EN.exec(clause);
  return en ? `I now work at ${en[1]}` : undefined;
}
