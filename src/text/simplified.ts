/**
 * Traditional Chinese characters folded to simplified ones, one for one, for the readers written
 * against simplified text (a request to forget, "別記住我前女友的事"): the characters their patterns
 * use and those of common words around them. One character for one, so an offset in the folded
 * text is the same offset in the text as written (the topic is given back as the user wrote it).
 */
const TRADITIONAL = '別記錄刪關於說過講訴對給當沒聽見這個們讓從憶裡裏條資訊內東請煩幫後現開嗎麼為辦樣話電號碼機媽兒歡愛車種與著還邊點時間問題學習師醫壓難傷結離劉張陳楊黃趙吳孫馬羅鄭謝韓馮鄧蔣蘇呂葉許錢龍萬嚴顧賀賈鍾譚陸盧閻強偉總經闆員歲氣錯會來認識讀寫買賣務處區縣鄉樓門戶劃計論戀擔專業網頁戲遊檔夠應該幾隻雙齊親將聯絡係繫級雖則啟舊兩實際麗華雲風驗體發頭髮臉飯館廳滿決極隨變轉遠運輕鬆續紀歷曆屬隱帳銀證護險單價費貼額態況誰囉慶療藥連鐘錶練靜雜誌紙筆書畫樂蘭鳳鵬濤軍國義傑輝豔紅綠藍鳥貓魚雞鴨豬湯麵餃飲燒鹹帶傘鑰廠職養寵頻簡郵鎖鏈陣隊團組織課試績獎贏輸鬧絕闖亂夢憂鬱悶懼嚇驚慮緊壞賴懶窮貴賺債貸稅薦裝飾燈廚廁臥陽臺檯鄰獨戰勝敗爭聞報導產農礦鐵鋼鋁銅';
const SIMPLIFIED = '别记录删关于说过讲诉对给当没听见这个们让从忆里里条资讯内东请烦帮后现开吗么为办样话电号码机妈儿欢爱车种与着还边点时间问题学习师医压难伤结离刘张陈杨黄赵吴孙马罗郑谢韩冯邓蒋苏吕叶许钱龙万严顾贺贾钟谭陆卢闫强伟总经板员岁气错会来认识读写买卖务处区县乡楼门户划计论恋担专业网页戏游档够应该几只双齐亲将联络系系级虽则启旧两实际丽华云风验体发头发脸饭馆厅满决极随变转远运轻松续纪历历属隐账银证护险单价费贴额态况谁啰庆疗药连钟表练静杂志纸笔书画乐兰凤鹏涛军国义杰辉艳红绿蓝鸟猫鱼鸡鸭猪汤面饺饮烧咸带伞钥厂职养宠频简邮锁链阵队团组织课试绩奖赢输闹绝闯乱梦忧郁闷惧吓惊虑紧坏赖懒穷贵赚债贷税荐装饰灯厨厕卧阳台台邻独战胜败争闻报导产农矿铁钢铝铜';
const FOLD = new Map([...TRADITIONAL].map((t, i) => [t, SIMPLIFIED[i]!]));

/** The text with the traditional characters of the table in their simplified form; the same length. */
export function toSimplified(text: string): string {
  let out = '';
  let changed = false;
  for (const ch of text) {
    const s = FOLD.get(ch);
    if (s !== undefined) changed = true;
    out += s ?? ch;
  }
  return changed ? out : text;
}
