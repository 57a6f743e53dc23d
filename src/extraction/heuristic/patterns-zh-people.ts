import { kin, type Pattern } from './candidate.js';
import { BIRTH_DATE, COUNT, NAME, PET, re, REL } from './patterns-zh-words.js';

/** Chinese rows about the user's people and pets: family, a relative's age or name, a pet and its name. */

/** An age in years: "七岁", "36岁". */
const AGE = '(\\d{1,3}|[一二三四五六七八九十两]{1,3})岁';
/** Someone named ("小王", "Mark"): not the user, a pointer, a day. */
const SOMEONE = '((?![我你他她它谁这那今明后昨前每])\\p{Script=Han}{1,4}?|[A-Z][A-Za-z]{1,20})';
/** A relative said alone ("妈妈的生日…"): the user's. */
const KIN_ALONE = new RegExp(`^${REL}$`, 'u');

export const ZH_PEOPLE: readonly Pattern[] = [
  // Family and pets.
  {
    slot: 'family', kind: 'person', importance: 0.7,
    re: re(`我(?:家里?)?有${COUNT}?个(孩子|小孩|儿子|女儿|兄弟姐妹|兄弟|姐妹|哥哥|姐姐|弟弟|妹妹)`),
    build: (m) => ({ content: `用户有${m[1] ?? '一'}个${m[2]}`, value: m[2]! }),
  },
  {
    slot: 'family', kind: 'person', importance: 0.6,
    re: re(`我(?:们)?家(?:一共|总共)?有${COUNT}口人`),
    build: (m) => ({ content: `用户家有${m[1]}口人`, value: '家庭人口' }),
  },
  {
    slot: 'family', kind: 'person', importance: 0.7,
    re: re('我(?:已经)?(结婚|离婚|订婚|单身)'),
    build: (m) => ({ content: m[1] === '单身' ? '用户单身' : `用户已${m[1]}`, value: '婚姻' }),
  },
  {
    slot: 'pet', kind: 'fact', importance: 0.7,
    // Named after it ("一只猫，叫小白") or before it ("一只叫年糕的橘猫").
    re: re(`我(?:们?家里?|家里)?(?:也|还|刚|又)?(?:养了|养着|养|有|领养了|收养了|捡了)${COUNT}?(只|条|匹|头|个)(?:(?:叫|名叫)${NAME}的)?${PET}(?:[，,]?(?:它)?(?:叫|名叫|名字叫)${NAME})?`),
    build: (m) => {
      const name = m[3] ?? m[5];
      return { content: `用户养了${m[1] ?? '一'}${m[2]}${m[4]}${name ? `，名叫${name}` : ''}`, value: `${m[4]}:${name ?? ''}` };
    },
  },
  {
    slot: 'pet', kind: 'fact', importance: 0.7,
    re: re(`我(?:家)?的?${PET}(?:的名字)?(?:叫|名叫|是)${NAME}`),
    build: (m) => ({ content: `用户的${m[1]}叫${m[2]}`, value: `${m[1]}:${m[2]}` }),
  },
  // A relative's age ("我女儿今年七岁", "我女儿是八岁"): one value for each relative, which a new one replaces.
  {
    slot: 'kinAge', kind: 'person', importance: 0.7,
    // A name may follow the relation ("我儿子乐乐今年五岁").
    re: re(`我(?:的)?${REL}((?![今现是已都才快也还刚满])\\p{Script=Han}{1,3}?)?(今年|现在)?(?:是|已经|都|才)?${AGE}(?:了)?`),
    build: (m) => ({ content: `用户的${kin(m[1]!)}${m[2] ?? ''}${m[3] ?? ''}${m[4]}岁`, value: m[4]!, who: m[2] ? [kin(m[1]!), m[2]] : [kin(m[1]!)] }),
  },
  {
    slot: 'family', kind: 'person', importance: 0.7,
    re: re(`我(?:的)?${REL}(叫|名叫|是|在|今年|住在|喜欢|也是|刚|已经|做|有(?=高血压|糖尿病|哮喘|心脏病|冠心病|癌症|高血脂|痛风|老年痴呆|阿尔茨海默)|不吃|不喝|不爱吃|不能吃|不能喝|吃不了|不喜欢|讨厌|爱吃|对(?=.{1,10}过敏)|(?:明天|后天|下周|下个?月|明年|最近|每天|每周)(?!过?生日))(.+?)`),
    // The relative is the subject: "来上海看我" is 来上海看用户 (自己 would be the relative).
    build: (m) => ({ content: `用户的${kin(m[1]!)}${m[2]}${m[3]!.replace(/我(?!们)/gu, '用户')}`, value: kin(m[1]!) }),
  },
  // "小王的生日是3月3日": someone the user knows, one birthday each; no reminder is made of it (none was asked for).
  {
    slot: 'personBirthday', kind: 'person', importance: 0.7,
    re: re(`${SOMEONE}的?生日(?:是|在)${BIRTH_DATE}`),
    build: (m) => {
      const relative = KIN_ALONE.test(m[1]!) ? kin(m[1]!) : undefined;
      return { content: relative ? `用户的${relative}生日是${m[2]}` : `${m[1]}的生日是${m[2]}`, value: m[2]!, who: [relative ?? m[1]!] };
    },
  },
];
