import { kin, thirdPerson, type Pattern } from './candidate.js';
import { END, PET, re, REL } from './patterns-zh-words.js';

/**
 * Chinese rows for what is over or changed: a death, a job that ended, what the user no longer
 * likes or does. Read before the rows that state things.
 */

/** When a death was, and how it came, between who and the verb: "上个月", "因为生病", "在医院". */
const WHEN_GONE = '(上周末?|上个?星期|上个?月|昨天|昨晚|前天|今天|今早|前几天|去年|前年|\\d{4}年|最近)';
const HOW_GONE = '((?:已经|刚刚?|突然|不幸|还是|终于)*(?:(?:因为?|由于|在)\\p{Script=Han}{1,8}?)?(?:已经|刚刚?|突然|不幸|还是|终于)*)';
/** A death said outright; then only as going away ("走了", "没了", "去汪星了"), which is a death only of a pet. */
const DIED = '(去世|过世|离世|病逝|死)了';
const GONE = '(走了|没了|不在了|离开(?:了)?我们了?|去了?(?:喵星|汪星|天堂)了?)';
/** The verb a death is written with: as said when said outright, else 去世. */
const diedAs = (said: string | undefined): string => (said === undefined || said === '死' ? '去世' : said);

export const ZH_CHANGES: readonly Pattern[] = [
  // A death ("我的猫咪咪上周去世了", "我外婆去年过世了", "旺财上个月因为生病去世了"): a pet's memory is retired by it
  // (reconcile.ts), a relative's says so (relative-death.ts). Going away ("走了", "没了", "离开我们了") says it only
  // of a pet: "我爸走了" may only have left.
  {
    slot: 'loss', kind: 'event', importance: 0.8,
    re: re(`我(?:们家|家)?的?(?:${PET}|${REL})((?![上昨前去今刚已突最因在])\\p{Script=Han}{1,3}?|[A-Za-z][A-Za-z'-]{1,20})?(?:在)?${WHEN_GONE}?${HOW_GONE}(?:${DIED}|${GONE})`),
    build: (m) => {
      const pet = m[1] !== undefined;
      if (!pet && m[7] !== undefined) return undefined;
      const kind = pet ? m[1]! : kin(m[2]!);
      const subject = `用户的${kind}${m[3] ?? ''}`;
      return { content: `${subject}${m[4] ?? ''}${m[5]}${diedAs(m[6])}了`, value: `${kind}${m[3] ?? ''}`, past: true, lost: { pet, kind, ...(m[3] ? { name: m[3] } : {}), subject: subject.length } };
    },
  },
  // "咪咪上周去世了", "我们家咪咪昨天没了": a name alone, which only a pet's memory can say is the user's (reconcile.ts),
  // so going away may say it too ("钱包没了" names no pet the user has).
  {
    slot: 'loss', kind: 'event', importance: 0.8,
    re: re(`(?:我们?家的?|我的)?((?![我你他她它这那])\\p{Script=Han}{1,4}?|[A-Z][A-Za-z'-]{1,20})${WHEN_GONE}?${HOW_GONE}(?:(去世|过世|离世|病逝)了|${GONE})`),
    build: (m) => ({ content: `${m[1]}${m[2] ?? ''}${m[3]}${diedAs(m[4])}了`, value: m[1]!, past: true, quiet: true, lost: { pet: true, name: m[1]!, subject: m[1]!.length } }),
  },
  // The job over ("我辞职了", "我已经从阿里离职了", "我上个月退休了"), or left for another ("我换工作了"): the job memory says so (reconcile.ts).
  {
    slot: 'job-end', kind: 'event', importance: 0.8,
    re: re(`我${WHEN_GONE}?(?:已经|刚刚?|终于|最近|也|正式)*${WHEN_GONE}?(?:从(.{1,12}?))?(?:正式)?(辞职|离职|退休|裸辞|被裁员?|被辞退|被开除|下岗|失业|辞掉?了?工作|把工作辞掉?了|换了?(?:一?份|个)?(?:新)?工作)了?`),
    build: (m) => {
      const when = m[1] ?? m[2] ?? '';
      // In the words said: "换了一份新工作" says it is new.
      const what = m[4]!.includes('了') ? m[4]! : `${m[4]}了`;
      // "我失业" is a state; "我换工作" without 了 may be only a wish.
      if (!m[0].includes('了')) return undefined;
      return { content: `用户${when}${m[3] ? `从${m[3]}` : ''}${what}`, value: m[3] ?? '', past: true, ...(m[4]!.startsWith('换') ? { jobChange: true } : {}) };
    },
  },
  // Corrections that take something back.
  {
    slot: 'no-longer-like', kind: 'preference', importance: 0.6,
    re: re('我(?:现在|已经)*不再(?:喜欢|爱)(.+?)'),
    build: (m) => ({ content: `用户不再喜欢${thirdPerson(m[1]!, 'zh')}`, value: m[1]! }),
  },
  {
    slot: 'no-longer-like', kind: 'preference', importance: 0.6,
    re: new RegExp(`^我(?:现在|已经)*不(?:喜欢|爱)(.+?)了${END}`, 'u'),
    build: (m) => ({ content: `用户不再喜欢${thirdPerson(m[1]!, 'zh')}`, value: m[1]! }),
  },
  // "我不喝咖啡了": 了 says it was so before; a liked drink, if there is one, is no longer liked.
  {
    slot: 'no-longer-like', kind: 'preference', importance: 0.6,
    re: new RegExp(`^我(?:现在|已经)*不(喝|吃|抽)(.+?)了${END}`, 'u'),
    build: (m) => ({ content: `用户不再${m[1]}${thirdPerson(m[2]!, 'zh')}`, value: m[2]! }),
  },
  {
    slot: 'no-longer', kind: 'fact', importance: 0.6,
    re: re('我(?:现在|已经)*不在(.+?)(工作|上班)了'),
    build: (m) => ({ content: `用户不再在${m[1]}${m[2]}`, value: m[1]! }),
  },
  {
    slot: 'no-longer', kind: 'fact', importance: 0.6,
    re: re('我(?:现在|已经)*不再(.+?)'),
    build: (m) => ({ content: `用户不再${thirdPerson(m[1]!, 'zh')}`, value: m[1]! }),
  },
  // "我现在不减肥了": what a memory says the user does is over; with no such memory it says nothing ("我现在不饿了").
  {
    slot: 'no-longer', kind: 'fact', importance: 0.6,
    re: new RegExp(`^我(?:现在|已经)+不(?:在)?(\\p{Script=Han}{2,8}?)了${END}`, 'u'),
    build: (m) => ({ content: `用户不再${m[1]}`, value: m[1]!, quiet: true }),
  },
];
