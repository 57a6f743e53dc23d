import { zonedTime } from '../../domain/zoned-time.js';
import { findTimePhrase } from '../due-time.js';

/**
 * A birthday said by the day it falls on ("明天是我老婆的生日", "后天是妈妈生日", "我明天生日", "Tomorrow
 * is my wife's birthday", "My mom's birthday is on Sunday") reads as the date it is ("我老婆的生日是
 * 11月28日", "My wife's birthday is November 28"), which the birthday rows keep: a birthday comes
 * back every year, "tomorrow" does not.
 */
const ZH_REL = '(老婆|妻子|太太|爱人|老公|丈夫|先生|男朋友|女朋友|男友|女友|对象|儿子|女儿|孩子|爸爸|妈妈|父亲|母亲|哥哥|姐姐|弟弟|妹妹|爷爷|奶奶|外公|外婆|姥姥|姥爷|爸|妈)';
const ZH_DAY = '(今天|明天|后天|大后天|(?:这|下个?)?(?:周|星期|礼拜)[一二三四五六日天]|(?:这个?|下个?)?月?(?:\\d{1,2}|[一二三四五六七八九十]{1,3})号)';
const ZH_END = '[了啦呀哦啊!！。~～]*$';
const ZH_FORMS = [
  // "明天是我老婆的生日", "后天是妈妈生日", "今天是我生日"
  new RegExp(`^${ZH_DAY}(?:就)?是(?:我的?)?${ZH_REL}?的?生日${ZH_END}`, 'u'),
  // "我老婆的生日是明天", "妈妈生日在下周三"
  new RegExp(`^(?:我的?)?${ZH_REL}?的?生日(?:是|在|就是)${ZH_DAY}${ZH_END}`, 'u'),
  // "我妈后天过生日", "我明天生日"
  new RegExp(`^我的?${ZH_REL}?${ZH_DAY}(?:过)?生日${ZH_END}`, 'u'),
];
const EN_REL = "(wife|husband|partner|boyfriend|girlfriend|son|daughter|mom|mum|mother|dad|father|brother|sister|grandma|grandmother|grandpa|grandfather)";
const EN_DAY = '(today|tomorrow|the day after tomorrow|(?:on )?(?:this |next )?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday))';
const EN_FORMS = [
  // "Tomorrow is my wife's birthday", "Today is my birthday"
  new RegExp(`^${EN_DAY} is my (?:${EN_REL}'s )?birthday[.!]*$`, 'i'),
  // "My mom's birthday is tomorrow", "It's my birthday today"
  new RegExp(`^my (?:${EN_REL}'s )?birthday is ${EN_DAY}[.!]*$`, 'i'),
  new RegExp(`^(?:it's|it is) my (?:${EN_REL}'s )?birthday ${EN_DAY}[.!]*$`, 'i'),
];
const EN_MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** The clause with its birthday's day written as a date; undefined when it says no birthday by a day. */
export function datedBirthday(text: string, reference: Date, timeZone: string): string | undefined {
  const clause = text.trim();
  for (const form of ZH_FORMS) {
    const m = form.exec(clause);
    if (!m) continue;
    const [day, rel] = form === ZH_FORMS[0] ? [m[1], m[2]] : [m[2], m[1]];
    const date = dateOf(day!, reference, timeZone);
    if (!date) return undefined;
    return rel ? `我${rel}的生日是${date.month}月${date.day}日` : `我的生日是${date.month}月${date.day}日`;
  }
  for (const form of EN_FORMS) {
    const m = form.exec(clause);
    if (!m) continue;
    const [day, rel] = form === EN_FORMS[0] ? [m[1], m[2]] : [m[2], m[1]];
    const date = dateOf(day!, reference, timeZone);
    if (!date) return undefined;
    const on = `${EN_MONTHS[date.month - 1]} ${date.day}`;
    return rel ? `My ${rel.toLowerCase()}'s birthday is ${on}` : `My birthday is ${on}`;
  }
  return undefined;
}

/** The wall date a day phrase names; today itself for "今天" / "today". */
function dateOf(day: string, reference: Date, timeZone: string): { month: number; day: number } | undefined {
  const said = /^(?:今天|today)$/iu.test(day) ? reference : findTimePhrase({ text: day, reference, timeZone })?.date;
  return said ? zonedTime(said, timeZone) : undefined;
}
