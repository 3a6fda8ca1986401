/*
 * What a whole message says about the writes it could ask for, read by rules rather than learned:
 * the ticket, to-do or refund it asks for in so many words, the ones it says not to do ("no
 * ticket needed", "别建单了", "那个退款不要了"), the ones it says were already done ("we opened
 * one last week"), whether it drops what it was about ("forget it", "算了"), whether it asks
 * about an order's status in so many words, and whether it asks for something no tool does
 * (a translation, a joke, the news). The classifier says what a clause is most like; these rules
 * say whether the person asked for a write at all. A write needs both.
 *
 * Every pattern is bounded (no unbounded repetition inside a repetition), so reading a message
 * stays linear in its length.
 */

import { forText } from './plain-text-pattern';
import { remembered } from './remembered';

/** The requests that write: a ticket, a refund, a to-do. */
export type WriteIntent = 'createTicket' | 'issueRefund' | 'addTodo';

const writeIntents: readonly WriteIntent[] = ['createTicket', 'issueRefund', 'addTodo'];

/** What a message says about its writes, and what else it asks for outside the tools. */
export type MessageScope = {
  /** Writes asked for in so many words ("open a ticket", "提醒我", "refund $40"), and not refused or already done. */
  asked: ReadonlySet<WriteIntent>;
  /** Writes the message says not to do ("don't make a ticket", "不用加到待办", "A1006 不退了"). */
  refused: ReadonlySet<WriteIntent>;
  /** Writes the message says were already done ("we opened one last week", "钱已经退到账了"). */
  alreadyDone: ReadonlySet<WriteIntent>;
  /** The message drops what it was about without naming a write ("forget it", "never mind", "算了"). */
  dropsIt: boolean;
  /** It asks about an order's whereabouts or status in so many words ("where is", "shipped yet", "到哪了", "查"); "it arrived late" does not. */
  asksStatus: boolean;
  /** It names the to-do list itself ("my todos", "待办", "还有什么事没做"): the evidence a listing needs. */
  namesList: boolean;
  /** It asks what is on the list and names nothing to add ("我的 to-do list 里还有啥", "what's on my todo list?"): a listing, never a write. */
  asksList: boolean;
  /** It asks for something no tool here does: a translation, a joke, a poem or story, the news, the weather, a booking. */
  outOfScope: boolean;
  /** It reads as a question ("how", "吗", "能不能", "?"). */
  question: boolean;
  /** It asks for a person rather than the assistant ("I want a human", "我要找人工客服"). */
  wantsPerson: boolean;
  /** It asks to cancel or change a ticket, to-do or order that exists: no tool here does that. */
  unsupported?: UnsupportedRequest;
};

/** A request for something no tool does to a thing that exists: cancel or change a ticket, to-do or order. */
export type UnsupportedRequest = {
  action: 'cancel' | 'change';
  object: 'ticket' | 'todo' | 'order';
  /** The ticket or order it names (`TK-000123`, `A1002`), if any. */
  id?: string;
};

// --- Writes asked for in so many words. ---

const ticketAsked = [
  /\b(?:open|create|make|file|log|raise|submit|start|lodge|register|put\s+in|needs?|wants?|gets?|would\s+like)\b[^.!?。！？\n]{0,25}?\b(?:ticket|tkt|case|complaint)s?\b/iu,
  /\b(?:ticket|tkt|case|complaint)\s+(?:opened|raised|created|filed|logged|submitted)\b/iu,
  /\b(?:ticket|case|complaint)\s+(?:could|can|should|would|might|may)\s+be\s+(?:opened|raised|created|filed|logged|submitted)\b/iu,
  /\b(?:make|file|raise|submit|do|put)\s+(?:a\s+)?complain\b/iu,
  /^\W{0,3}(?:(?:new|a|one)\s+)?(?:support\s+)?(?:ticket|tkt|complaint)\b/iu,
  /\b(?:ticket|tkt|tix|complaint)\b\s{0,3}(?:pls|please|plz)?\s{0,3}[:：\-–—]/iu,
  /\b(?:ticket|tkt)\s+(?:for|about|on|re)\b/iu,
  /\bcomplain(?:ing)?\s+about\b|\b(?:want|like|need)\s+to\s+complain\b/iu,
  /\b(?:with|via|as|in)\s+a\s+(?:support\s+)?ticket\b|\b(?:tell|let|notify|alert)\s+(?:the\s+)?support\b|\breport\s+(?:a|an|this|it|that|the)\b|\bescalate\b/iu,
  /(?:开|建|提|创建|新建|提交|登记|建立|起|报|记|整|做)\s{0,2}(?:一?个|一下|一张|张|下)?\s{0,2}(?:工单|单子|单|修|售后单|售后|ticket|tkt)/iu,
  /\b(?:ticket|tkt)\s{0,3}(?:pls|please|plz|thx|thanks|asap)\W{0,4}$/iu,
  /工单\s{0,2}[:：]|投诉|报修|登记一下|登记下|反馈/u,
];

const todoAsked = [
  /\bremind\s+me\b|\bremind\s*我|\bremember\s+me\s+to\b|\bremember\s+to\b|\bset\s+(?:a|an)\s+reminder\b|\b(?:note|jot|write)\s+(?:it\s+|this\s+|that\s+)?down\b/iu,
  /\b(?:don[’']?t\s+let\s+me|make\s+sure\s+I\s+don[’']?t|so\s+I\s+don[’']?t)\s+forget\b|\bkeep\s+track\s+of\b/iu,
  /\b(?:add|put|stick|create|make|new|set|save|pop)\b[^.!?。！？\n]{0,60}?\b(?:to-?dos?|todo\s+list|tasks?|reminders?|list)\b/iu,
  /\b(?:add|put|stick|create|make|new|set|save|pop)\s+(?:in\s+|on\s+|to\s+)?(?:a|an|one|my)?\s*(?:new\s+)?to\s+do\b/iu,
  /^\W{0,3}(?:new\s+)?(?:to-?do|todo|task|reminder)\b\s{0,3}[:：\-–—]?/iu,
  /\b(?:to-?do|todo|task|reminder)\b\s{0,3}[:：]/iu,
  /(?:加|添|建|记|放|写|新建|创建|新增|增加|添加|add)\s{0,2}\S{0,4}\s{0,2}(?:待办|to-?do\b)|待办\s{0,2}(?:里|中|清单)?\s{0,2}(?:加|添|[:：])|提醒我|提醒一下|记一下|记下|记个|记得|记住|备忘|列入待办|别让我忘|省得我忘|免得我忘/u,
];

const refundAsked = [/\brefund|\bmoney\s+back\b|\bback\b|\breimburs|\bcompensat|退|补偿|赔/iu];

// --- Writes the message says not to do. ---

const ticketWords = String.raw`(?:ticket|tkt|case|complaint)`;
const todoWords = String.raw`(?:to-?dos?|todo\s+list|list|remind(?:er)?|task|note)`;
const refundWords = String.raw`(?:refund|money\s+back)`;

// "don't …", "no need to …", "cancel …" reach a few words ahead; "no" and "not" only the word right after them.
const negator = String.raw`\b(?:don[’']?t|do\s+not|dont|no\s+need\s+(?:to|for)|never\s*mind|without|cancel|forget\s+about|skip|won[’']?t\s+need|doesn[’']?t\s+need|need\s+no)\b`;
// "not tryna open a ticket", "I'm NOT asking for a ticket", "not looking to file a complaint": not wanting it.
const notWanting = String.raw`\b(?:not|never|ain[’']?t)\s+(?:tryna|trying\s+to|gonna|going\s+to|asking(?:\s+for)?|wanting(?:\s+to)?|looking\s+(?:to|for)|here\s+(?:to|for)|interested\s+in|planning\s+(?:to|on)|after)\b`;
const negatedWithin = (words: string) =>
  new RegExp(
    String.raw`(?:${negator}|${notWanting})[^.!?。！？\n]{0,30}?\b${words}\b|\b(?:no|not)\s+(?:a\s+|an\s+|any\s+|new\s+|more\s+|another\s+)?${words}\b`,
    'iu',
  );
const negatedAfter = (words: string) =>
  new RegExp(
    String.raw`\b${words}\b[^.!?。！？\n]{0,20}?\b(?:not\s+needed|no\s+longer\s+needed|isn[’']?t\s+needed|cancell?ed)\b`,
    'iu',
  );

// Chinese: a negation right before the action ("别建单", "不用加到待办", "不要退款"), or the action then "不要了".
const zhNegator = String.raw`(?:不用|不要|(?<![特区级类告分识性差])别|无需|不需要|不必|先不|取消|甭|没必要)`;
// Not wanting it, within its own phrase: "不想开工单了", "我不是要投诉", "不开工单，就查下…"; "不想再等了，帮我开工单" is no refusal.
const zhNotWanting = String.raw`(?:不想|不是要|不是想|并不想|没想|不打算)`;
// A bare 不 before the action and its object ("不开工单", "先不加待办"); never 打不开 or 不开心.
const zhNotDoing = (actions: string, objects: string) =>
  new RegExp(
    String.raw`(?<=^|[\s，。！？,.!?；;：:]|我|先|就|也|都)不(?:${actions})(?:个|一个|张|到)?(?:${objects})`,
    'u',
  );
const zhTicket = String.raw`(?:工单|单子?|建|开|提|报修|投诉)`;
const zhTodo = String.raw`(?:待办|提醒|记|加到|加进)`;
const zhRefund = String.raw`(?:退款|退钱|退)`;
const zhNegated = (words: string) =>
  new RegExp(String.raw`${zhNegator}\S{0,8}?${words}|${zhNotWanting}[^\s，。！？、,.!?]{0,4}?${words}`, 'u');
const zhDropped = (words: string) =>
  new RegExp(String.raw`${words}\S{0,6}?(?:不要了|不用了|算了|不需要了|取消|撤销|撤回)`, 'u');

const refusedPatterns: Record<WriteIntent, RegExp[]> = {
  createTicket: [
    negatedWithin(ticketWords),
    negatedAfter(ticketWords),
    zhNegated(zhTicket),
    zhNotDoing('开|建|提|报', '工单|单子?'),
    zhDropped('(?:工单|单子)'),
  ],
  addTodo: [
    negatedWithin(todoWords),
    negatedAfter(todoWords),
    zhNegated(zhTodo),
    zhNotDoing('加|记|建', '待办|提醒'),
    zhDropped('(?:待办|提醒)'),
  ],
  issueRefund: [
    negatedWithin(refundWords),
    negatedAfter(refundWords),
    /\bdon[’']?t\s+refund\b/iu,
    zhNegated(zhRefund),
    zhDropped('(?:退款|退钱)'),
    /不(?:想)?退了|不退款/u,
  ],
};

// --- Writes already done. ---

const alreadyPatterns: Record<WriteIntent, RegExp[]> = {
  createTicket: [
    /\balready\b[^.!?。！？\n]{0,30}?\b(?:ticket|tkt|case|complaint|opened|filed|raised|created|reported|logged|submitted)\b/iu,
    /\b(?:opened|filed|raised|created|submitted|logged|made)\s+(?:one|a\s+ticket|a\s+case|it|this)\b[^.!?。！？\n]{0,30}?\b(?:already|last|yesterday|before|earlier|ago)\b/iu,
    /\b(?:another|a\s+second|a\s+duplicate)\s+(?:one|ticket)\b/iu,
    /(?:建|提|开|报|投诉)过|(?:已经|之前|早就|上周|昨天)\S{0,6}?(?:建|提|开|报)(?:了|过)?\S{0,2}?(?:工单|单)|再(?:开|建|提)一个/u,
  ],
  addTodo: [
    /\balready\b[^.!?。！？\n]{0,30}?\b(?:to-?do|todo|on\s+my\s+list|added)\b/iu,
    /(?:已经|早就)\S{0,6}?(?:加|记)(?:了|过)/u,
  ],
  issueRefund: [
    /\balready\b[^.!?。！？\n]{0,30}?\b(?:refund|refunded|money\s+back|got\s+(?:it|the\s+money))\b/iu,
    /(?:已经|早就|之前)\S{0,6}?(?:退(?:了|过|款|到账)|到账)/u,
  ],
};

// --- Other cues. ---

const dropsItPattern =
  /\b(?:forget\s+(?:it|that|this|about\s+it)|never\s*mind|nvm|cancel\s+(?:that|it|this)|scratch\s+that|disregard)\b|算了|不用管了|不用了|没事了|取消吧|不要了/iu;

const statusPattern =
  /\bwhen\b[^.!?。！？\n]{0,30}\b(?:arrive|arrives|get\s+here|gets\s+here|come|comes|ship|ships|be\s+delivered|deliver)\b|\b(?:where|wheres|whr|status|stauts|track(?:ing)?|shipped|eta|when\s+will|check|chek|look\s*up|dispatched)\b|到哪|哪了|状态|物流|发货|发了|到了没|到没|查|进度|怎么还没|什么时候到|派送|寄出/iu;

const listPattern =
  /\b(?:to-?dos?|todo\s+list|to\s+do\s+list|list|tasks?|plate|agenda|reminders)\b|\b(?:have|need|left|got)\s+to\s+do\b|待办|清单|要做|没做|要办|要干|没干|没办|做完|干完|没完成|事项|任务/iu;

// Asks no tool here serves: translating, writing or summarising text, jokes, the news, weather, sport, bookings.
const outOfScopePattern =
  /\b(?:translate|translation|summari[sz]e|summary|paraphrase|rewrite|proofread|joke|jokes|poem|poems|haiku|story|stories|song|lyrics|essay|article|news|headlines|weather|forecast|recipe|horoscope|football|soccer|basketball|stock\s+price|draft\s+(?:a|an|me)|compose\s+(?:a|an|me)|book\s+(?:me\s+)?(?:a|an)\s+(?:table|flight|hotel|room|ticket\s+to|train)|reserve\s+(?:a|an)\s+(?:table|room))\b|翻译|笑话|段子|总结|摘要|概括|改写|润色|写(?:一?首|一?个|一?篇|一?段|一?封)?\S{0,6}?(?:诗|故事|文章|作文|歌词|小说|邮件|文案)|新闻|天气|气温|(?:订|买)(?:一?张)?\S{0,10}?(?:机票|车票|高铁票|火车票|电影票|酒店|餐厅|位子)|股价|星座|菜谱|电影|电视剧|综艺|\b(?:movie|film|tv\s+show|series)\s+(?:recommendation|to\s+watch)|\b(?:write|compose)\s+(?:me\s+)?(?:a|an)\s+(?:[\w-]+\s+)?(?:message|letter|email|card|speech|toast|caption|tweet)\b/iu;

const questionPattern =
  /[?？]|吗|么|啥|什么|怎么|如何|哪|多少|多久|多长|几|谁|是否|能否|可否|有没有|([\p{Script=Han}])不\1|\b(?:how|hows|what|whats|why|when|where|wheres|which|who|can|could|do\s+you|does|is\s+there|are\s+there|is\s+(?:it|that|this)|any\s+chance)\b/iu;

// A person, not the assistant: "a human", "a real person", "talk to someone", "人工客服", "真人".
const wantsPersonPattern =
  /\b(?:humans?|real\s+person|actual\s+person|live\s+(?:agent|person|chat)|representative|operator|member\s+of\s+(?:your\s+)?staff|someone\s+real)\b|\b(?:talk|speak|chat)\s+(?:to|with)\s+(?:someone|somebody|a\s+person|an?\s+agent|a\s+real)|\b(?:get|want|need|speak\s+(?:to|with)|talk\s+(?:to|with)|put\s+me\s+through\s+to)\s+(?:me\s+)?(?:a|an|the|your)?\s*(?:manager|supervisor|agent)\b|人工(?!智能)|真人|转接|(?:和|跟|同)(?:真)?人(?:说话|聊|沟通)|找个人|客服人员|工作人员|你们的人|叫(?:个)?人来|找(?:你们)?(?:店长|主管|经理)/iu;

// Cancelling or changing something that exists: a ticket (or `TK-…`), a to-do, an order.
const unsupportedEn =
  /\b(cancel|close|delete|remove|withdraw|void|scrap|edit|change|update|modify|reschedule|redirect)\b[^.!?\n]{0,20}?(?:\b(ticket|case|to-?do|order|delivery|address)s?\b|(?<![A-Za-z])(工单|订单|待办|地址)|\b(TK)-\d+)/iu;
const zhUndo = String.raw`取消|撤销|撤回|撤掉|撤了|撤下|删除|删掉|删了|作废|关闭|关掉|修改|更改|改一下|改下|改成|改为|改掉|换个地址`;
const unsupportedZhBefore = new RegExp(String.raw`(${zhUndo})[^。！？!?\n]{0,8}?(工单|订单|待办|地址)`, 'u');
const unsupportedZhAfter = new RegExp(String.raw`(工单|订单|待办|地址)[^。！？!?\n]{0,16}?(${zhUndo})`, 'u');
// It is about one that exists: it is named by number, or as "my" / "this" one.
const existing =
  /\bTK-\d+|\b(?:the|my)\s+(?:delivery|address)\b|地址|(?<![A-Za-z0-9])[A-Za-z]\d{4,8}(?![A-Za-z0-9])|\b(?:my|our|this|that)\s+(?:\w+\s+)?(?:ticket|case|to-?do|order)|我的|这个|那个|这张|该/iu;

const howTo = /\bhow\s+(?:do|can|could|should|to)\b|怎么|如何|怎样|咋/iu;

const objectOf = (word: string): UnsupportedRequest['object'] =>
  /ticket|case|工单|^TK$/i.test(word) ? 'ticket' : /to-?do|待办/i.test(word) ? 'todo' : 'order';
const actionOf = (word: string): UnsupportedRequest['action'] =>
  /edit|change|update|modify|reschedule|redirect|改|换/i.test(word) ? 'change' : 'cancel';

/** A request to cancel or change a ticket, to-do or order that exists, if the message makes one. */
function unsupportedRequest(text: string): UnsupportedRequest | undefined {
  // "how do I change my delivery address", "怎么修改收货地址": asks how, which the help centre answers.
  if (!forText(existing, text).test(text) || forText(howTo, text).test(text)) return undefined;
  const english = forText(unsupportedEn, text).exec(text);
  const chinese = unsupportedZhBefore.exec(text);
  const chineseAfter = chinese === null ? unsupportedZhAfter.exec(text) : null;
  const [verb, noun] =
    english !== null
      ? [english[1], english[2] ?? english[3] ?? english[4]]
      : chinese !== null
        ? [chinese[1], chinese[2]]
        : chineseAfter !== null
          ? [chineseAfter[2], chineseAfter[1]]
          : [undefined, undefined];
  if (verb === undefined || noun === undefined) return undefined;
  const object = objectOf(noun);
  const id =
    (object === 'ticket' ? /\bTK-\d+/i.exec(text)?.[0] : undefined) ??
    (object === 'order' ? /(?<![A-Za-z0-9])[A-Za-z]\d{4,8}(?![A-Za-z0-9])/.exec(text)?.[0] : undefined);
  return { action: actionOf(verb), object, ...(id === undefined ? {} : { id: id.toUpperCase() }) };
}

// The list itself, named as a list ("my to-do list", "todo list", "待办"), and the words that add to it.
const listNoun =
  /\b(?:to-?do\s+list|to\s+do\s+list|todo\s+list|task\s+list|to-?do\s+items|my\s+(?:to-?dos|todos|tasks|list|reminders))\b|待办|清单/iu;
// Asking to be given the list, not asking a question: "kindly provide the list of my to-do items".
const seeVerb = /\b(?:provide|send|give|show|display|share)\b/iu;
const addWord =
  /\b(?:add|put|stick|create|make|new|set|save|pop|remind|remember|note|jot|write|don[’']?t\s+forget)\b|加|添|记|建|新增|提醒|备忘|写|别忘/iu;

const matchesAny = (patterns: readonly RegExp[], text: string) =>
  patterns.some((pattern) => forText(pattern, text).test(text));

/** True when a message reads as a question. */
export function readsAsQuestion(text: string): boolean {
  return questionPattern.test(text);
}

/** True when `text` asks for a ticket (or to-do) in so many words ("帮我建个工单", "remind me"). */
export function asksInSoManyWords(text: string, intent: string): boolean {
  if (intent !== 'createTicket' && intent !== 'addTodo') return false;
  return matchesAny(intent === 'createTicket' ? ticketAsked : todoAsked, text);
}

// A title the person states outright: what follows "工单：", "ticket:", "待办：" (to the end of its
// sentence), or text in quotes. Its words are the title's, not cues: "帮我创建一个工单：停止后取消"
// asks for a ticket titled 停止后取消; it cancels nothing.
const statedTitlePattern =
  /((?:工单|单子|待办|提醒|ticket|tkt|tix|complaint|to-?do|todo|task|reminder)\s{0,3}(?:pls|please|plz)?\s{0,3}[:：])(?:(?![，,]\s*(?:再|然后|接着|顺便|另外|(?:and\s+)?then\s|also\s))[^\n。！？!?]){0,200}|“[^”\n]{0,200}”|「[^」\n]{0,200}」|"[^"\n]{0,200}"/giu;

/** `text` with the titles it states outright taken out, so their words are not read as cues. */
function withoutStatedTitles(text: string): string {
  return text.replace(forText(statedTitlePattern, text), (_match, label: string | undefined) => label ?? ' ');
}

/** Reads what a message says about its writes (see `MessageScope`); remembered, as several stages ask it of the same text. */
export const readScope = remembered(readScopeOf);

function readScopeOf(message: string): MessageScope {
  const text = withoutStatedTitles(message);
  const refused = new Set(writeIntents.filter((intent) => matchesAny(refusedPatterns[intent], text)));
  const alreadyDone = new Set(writeIntents.filter((intent) => matchesAny(alreadyPatterns[intent], text)));
  const question = questionPattern.test(text);
  const test = (pattern: RegExp) => forText(pattern, text).test(text);
  const asksList = (question || test(seeVerb)) && test(listNoun) && !test(addWord);
  const askedPatterns: Record<WriteIntent, RegExp[]> = {
    createTicket: ticketAsked,
    addTodo: todoAsked,
    issueRefund: refundAsked,
  };
  const asked = new Set(
    writeIntents.filter(
      (intent) =>
        !refused.has(intent) &&
        !alreadyDone.has(intent) &&
        !(intent === 'addTodo' && asksList) &&
        matchesAny(askedPatterns[intent], text),
    ),
  );
  const unsupported = unsupportedRequest(message);
  // "把我的投诉工单 TK-000520 撤了": the ticket words name the one that exists; none is asked for.
  if (unsupported?.object === 'ticket') asked.delete('createTicket');
  if (unsupported?.object === 'todo') asked.delete('addTodo');
  return {
    asked,
    refused,
    alreadyDone,
    dropsIt: test(dropsItPattern),
    asksStatus: test(statusPattern),
    namesList: test(listPattern),
    asksList,
    outOfScope: test(outOfScopePattern),
    question,
    wantsPerson: test(wantsPersonPattern),
    ...(unsupported === undefined ? {} : { unsupported }),
  };
}
