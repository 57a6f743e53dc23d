/**
 * Chinese as chat types it, spelled out the standard way so the pattern tables read it as they
 * read the rest: spaces between characters ("我 住在 上海", "我对花生 过敏"), and 再 typed for 在
 * after 住 ("我住再上海"). The user's own words for things ("火过") stay as said.
 */

/** A space between two characters: a clause break before "我" ("我喜欢吃火锅 我老公不能吃辣"), else nothing. */
const SPACE_BETWEEN_HAN = /(?<=\p{Script=Han})\s+(?=(\p{Script=Han}))/gu;
/** "住再上海" is "住在上海"; not "住再久一点", "住再一起" (a typo too, but of another phrase). */
const LIVE_AGAIN = /住再(?![久多一几两下些长住呆待玩来去过])(?=\p{Script=Han})/gu;

export function spellOutCasualZh(sentence: string): string {
  return sentence.replace(SPACE_BETWEEN_HAN, (_space: string, next: string) => (next === '我' ? '，' : '')).replace(LIVE_AGAIN, '住在');
}
