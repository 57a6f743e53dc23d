/**
 * Everyday facts a user tells an assistant, each with questions that should bring it back without
 * repeating its words, in Chinese and in English (the same cases): for `bench/zh-recall.ts`.
 * Written as a held-out set: none of these words were looked at when the gloss table was made.
 */
export interface RecallCase {
  fact: string;
  questions: readonly string[];
}

export const ZH_CASES: readonly RecallCase[] = [
  { fact: '用户喜欢爬山', questions: ['周末有什么户外活动推荐？', '我想去徒步，需要准备什么装备？'] },
  { fact: '用户对花生过敏', questions: ['这道宫保鸡丁我能吃吗？', '推荐一些零食'] },
  { fact: '用户有一个女儿叫小美', questions: ['给孩子买什么生日礼物好', '周末带小孩去哪玩'] },
  { fact: '用户正在学日语', questions: ['推荐一些外语学习方法', '有什么好看的日剧'] },
  { fact: '用户每天早上喝咖啡', questions: ['早上喝点什么提神', '推荐一家好的咖啡店'] },
  { fact: '用户讨厌下雨天', questions: ['明天天气怎么样', '周末出门要带伞吗'] },
  { fact: '用户喜欢看科幻电影', questions: ['推荐几部好看的电影', '周末晚上看什么片子'] },
  { fact: '用户养了一条金毛', questions: ['遛狗要注意什么', '狗粮怎么选'] },
  { fact: '用户是素食者', questions: ['晚饭吃什么好', '推荐一家餐厅'] },
  { fact: '用户在一家银行做程序员', questions: ['我的工作压力好大', '帮我准备技术面试'] },
  { fact: '用户住在杭州', questions: ['附近有什么好玩的地方', '本地有什么特色菜'] },
  { fact: '用户下个月要去巴黎旅行', questions: ['出国要带什么东西', '法国有什么必去的景点'] },
  { fact: '用户每周三晚上打篮球', questions: ['运动后怎么拉伸', '推荐一双球鞋'] },
  { fact: '用户的生日是十月五号', questions: ['我什么时候过生日', '我的生日快到了吗'] },
  { fact: '用户失眠很严重', questions: ['晚上睡不着怎么办', '有什么助眠的方法'] },
  { fact: '用户正在减肥', questions: ['推荐一些低卡路里的食物', '怎么控制饮食'] },
  { fact: '用户喜欢弹吉他', questions: ['推荐一些乐器入门教程', '学什么曲子比较好'] },
  { fact: '用户开一辆特斯拉', questions: ['电动车多久充一次电', '汽车保养要注意什么'] },
  { fact: '用户的妈妈住院了', questions: ['家人生病了我该怎么照顾', '医院探望要带什么'] },
  { fact: '用户计划明年买房', questions: ['贷款利率是多少', '怎么存首付'] },
];

export const EN_CASES: readonly RecallCase[] = [
  { fact: 'The user enjoys mountain climbing', questions: ['Any outdoor activities for the weekend?', 'I want to go hiking, what gear do I need?'] },
  { fact: 'The user is allergic to peanuts', questions: ['Can I eat this kung pao chicken?', 'Recommend some snacks'] },
  { fact: 'The user has a daughter named Mei', questions: ['What birthday present should I buy for a kid?', 'Where can I take the children this weekend?'] },
  { fact: 'The user is learning Japanese', questions: ['How should I study a foreign language?', 'Any good anime to watch?'] },
  { fact: 'The user drinks coffee every morning', questions: ['What should I drink to wake up?', 'Recommend a good cafe'] },
  { fact: 'The user hates rainy days', questions: ['What is the weather tomorrow?', 'Do I need an umbrella this weekend?'] },
  { fact: 'The user loves science fiction films', questions: ['Recommend some good movies', 'What should I watch tonight?'] },
  { fact: 'The user has a golden retriever', questions: ['What should I watch out for when walking a dog?', 'How do I choose dog food?'] },
  { fact: 'The user is vegetarian', questions: ['What should I have for dinner?', 'Recommend a restaurant'] },
  { fact: 'The user works as a programmer at a bank', questions: ['My job is so stressful', 'Help me prepare for a technical interview'] },
  { fact: 'The user lives in Hangzhou', questions: ['What fun places are nearby?', 'What local dishes should I try?'] },
  { fact: 'The user is travelling to Paris next month', questions: ['What should I pack for a trip abroad?', 'What are the must-see sights in France?'] },
  { fact: 'The user plays basketball every Wednesday evening', questions: ['How should I stretch after exercise?', 'Recommend a pair of sneakers'] },
  { fact: "The user's birthday is October 5", questions: ['When is my birthday?', 'Is my birthday coming up?'] },
  { fact: 'The user suffers from severe insomnia', questions: ["I can't fall asleep at night, what should I do?", 'Any ways to help me sleep?'] },
  { fact: 'The user is on a diet', questions: ['Recommend some low-calorie foods', 'How can I control what I eat?'] },
  { fact: 'The user likes playing guitar', questions: ['Recommend a beginner course for an instrument', 'What songs should I learn?'] },
  { fact: 'The user drives a Tesla', questions: ['How often should I charge an electric car?', 'What car maintenance should I do?'] },
  { fact: "The user's mother is in hospital", questions: ['How do I look after a sick family member?', 'What should I bring when visiting a hospital?'] },
  { fact: 'The user plans to buy a flat next year', questions: ['What are mortgage rates now?', 'How do I save for a down payment?'] },
];
