/**
 * Where an English sentence breaks into the clauses the pattern tables read: at "and I…", ", my…",
 * a dash, "after I…"; and what one clause says of the user twice ("I'm Jake, 34, a developer",
 * "I live in Seattle and work as a nurse"), said as two.
 */

// "Anna and I went…" (a name or "my sister" just before) is one subject, not two clauses.
// "I quit my job, now I work at Costco": what is so now is a clause of its own.
const CLAUSE_BREAK = /(?<!(?:^|[,;]\s*)(?:[A-Z][a-z]+|[Mm]y \w+)),?\s+(?:and|but|so)\s+(?=(?:I|my|My|we|We|it|It|that|That|this|This)\b)|,\s+(?=(?:I|my|My)\b)|\s[-–—]\s|(?<!\b(?:for|to|of|about|with|at|in|on|from|by|like))\s+(?:after|when|because|since|before|while|until)\s+(?=I\b)|,\s+(?=(?:please |pls |and |so )?(?:remind me|don't let me forget)\b)|(?:,\s+(?:(?:and|but|so)\s+)?|\s+(?:and|but|so)\s+)(?=now,? (?:I|at)\b)/u;

/** The sentence cut at its clause breaks. */
export function breakEnglish(sentence: string): string[] {
  return sentence.split(CLAUSE_BREAK);
}

/** "I'm Jake, a software engineer", "I'm Jake, 34, a developer from Austin": a name, maybe an age, then what the user is. */
const NAME_THEN_WHAT_EN = /^(I(?:'m| am) [A-Z][a-z'-]{1,20}),\s+(?:(\d{1,2}),\s+)?(an? .+?)(?: from ([A-Z][\p{L} .'-]*))?$/u;
/** "I'm a data scientist at Meituan, based in Beijing": where the user lives, said after what they are. */
const THEN_WHERE_EN = /^(I(?:'m| am) .+?),\s+(?:and )?(?:currently |now )?(based in|living in|from) ([A-Z][\p{L} .'-]*)$/u;

/** Splits "I'm Jake, 34, a software engineer from Austin" into the name, the age, the job and where the user is from. */
function splitNameAppositive(parts: string[]): string[] {
  return parts.flatMap((part) => {
    const where = THEN_WHERE_EN.exec(part.trim());
    if (where) return [where[1]!, `${where[2] === 'living in' ? 'I live in' : `I'm ${where[2]}`} ${where[3]}`];
    const m = NAME_THEN_WHAT_EN.exec(part.trim());
    if (!m) return [part];
    return [m[1]!, ...(m[2] ? [`I'm ${m[2]}`] : []), `I'm ${m[3]}`, ...(m[4] ? [`I'm from ${m[4]}`] : [])];
  });
}

/** "I live in Seattle and work as a nurse": the second verb shares the user as its subject. */
const AND_THEN_SELF_EN = /^(I(?:'m| am| live in| work (?:at|for|as)) [^,]+?),? and ((?:work (?:as|at|for)|live in) .+)$/u;

/** Splits "I live in Seattle and work as a nurse at …" into two statements of the user's. */
function splitSharedSubject(parts: string[]): string[] {
  return parts.flatMap((part) => {
    const m = AND_THEN_SELF_EN.exec(part.trim());
    return m ? [m[1]!, `I ${m[2]}`] : [part];
  });
}

/** Each part that says two things of the user, as two parts. */
export function splitStatedTogether(parts: string[]): string[] {
  return splitSharedSubject(splitNameAppositive(parts));
}
