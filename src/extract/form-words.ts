/**
 * The words the sentence forms (sentence-forms.ts) are built of: a target's time frame, measure and
 * verb of reaching ("月底前 … 要到 75%"), and the parts of a system a placement or handling statement
 * is about. Kept in one place so a Goal form and a shape form name a frame or a part the same way.
 */
const EN = String.raw;

/** A time frame a target is set against: 月底前, 年底前, 这个季度, 下一版, 本月, Q3, 6 月. */
export const ZH_FRAME =
  '(?:月底|年底|季末|年[内內]|年中|[上下]半年|本月|本季|本周|本週|[这這][个個]?(?:季度?|月)|今年|明年|下[个個]?(?:月|季度?)|下一?[个個]?\\s*(?:版本?|release|sprint|迭代)|Q[1-4]|\\d{1,2}\\s*月(?:\\s*\\d{1,2}\\s*[号號日])?(?:底|初|中)?|上[线線]前)';
/** A measure: a number, a percentage, a count. */
export const ZH_MEASURE =
  '(?:\\d|[一二三四五六七八九十百千两兩]+\\s*[万萬千百]|[一减減]半|翻倍|[一二三四五六七八九十百千万萬两兩]+\\s*(?:[个個家位名秒倍]|分[钟鐘]))';
/** How a target is said: must reach, bring down to, within. */
export const ZH_REACH =
  '(?:要|得|需要|[突]?破|超[过過]|争取|爭取|希望|力争|力爭|[达達]到|拿到|做到|降到|提到|提升到|提高到|[压壓]到|控制在|低于|低於|小于|小於|少于|少於|高于|高於|以[内內])';

/** Parts of a system, in either script, that a placement is about. */
export const ZH_PARTS =
  '(?:配置(?:中心)?|[设設]定檔?|config|feature\\s*flags?|推播|推送|通知|日志|日誌|logs?|图片|圖片|文件|檔案|附件|session|[会會]话|[会會]話|[缓緩]存|快取|cache|queue|[队隊佇]列|搜索|搜尋|search|静态资源|靜態資源|assets|metrics|[监監]控|secrets?|密[钥鑰]|uploads?|上[传傳]|[报報]表|[队隊佇]列|events?|事件|消息|訊息|任[务務]|jobs?|worker|[鉴鑑][权權]|[认認][证證]|auth|前端|后端|後端|frontend|backend|api|接口|介面|[数資][据料]|data|[请請]求|requests?)';

/** System parts in English a handling statement is about (plain-markers.ts PART, shorter). */
export const EN_PARTS = EN`auth(?:entication)?|login|sessions?|billing|payments?|search|emails?|notifications?|uploads?|images?|logs?|logging|metrics|config(?:uration)?|secrets|feature\s+flags|the\s+(?:api|frontend|backend|database|db|cache|queue)|rendering|routing|jobs|cron(?:\s+jobs)?|everything`;
