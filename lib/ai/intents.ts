/** The language a reply should use. */
export type Language = 'zh' | 'en';

/**
 * What a user message asks for, as the offline model and the keyword router read it.
 * A missing title or order id is `''`: the tool call is still made, and the schema's
 * validation error is what tells the model to ask for it.
 */
export type Intent =
  | { kind: 'createTicket'; title: string }
  | { kind: 'getOrderStatus'; orderId: string }
  | { kind: 'searchKnowledgeBase'; query: string }
  | { kind: 'addTodo'; title: string; thenList: boolean }
  | { kind: 'listTodos' }
  | { kind: 'greeting' }
  | { kind: 'unknown' };

const hanPattern = /[\u3400-\u9fff\uf900-\ufaff]/;

/** Chinese when the text contains any Han character, else English. */
export function detectLanguage(text: string): Language {
  return hanPattern.test(text) ? 'zh' : 'en';
}

const ticketPatterns = [
  /(?:创建|新建|建立|建|开|提交|提|发起)\s*(?:一个|一张|一份|个|张|份)?\s*(?:新的?)?\s*(?:客服|售后)?\s*工单/,
  /\b(?:create|open|file|submit|raise|log|start|make)\s+(?:me\s+)?(?:(?:a|an|one|new)\s+)*(?:support\s+|help\s+)?ticket\b/i,
];

const addTodoPatterns = [
  /(?:加|添加|新增|增加|新建|建|创建|记)\s*(?:一个|一条|个|条)?\s*(?:新的?)?\s*待办(?:事项)?/,
  /帮我记(?:一下|住)?|记一下|提醒我/,
  /\badd\s+(?:(?:a|an|one|new)\s+)*(?:todo|to-do|to do|task)(?:\s+item)?\b/i,
  /\bremind me to\b/i,
  /\b(?:note|jot) down\b/i,
];

// "add buy milk to my todo list": the title sits between "add" and "to my … list".
const addToListPattern = /\badd\s+(.+?)\s+to\s+my\s+(?:todo|to-do|to do|task)s?(?:\s+list)?\b/i;

const listClausePatterns = [
  /[，,。；;、\s]*(?:然后|再|并且|并|顺便|之后|接着)?\s*(?:帮我)?\s*(?:列出|显示|列一下|看看|查看|看一下|给我看看?)(?:一下)?\s*(?:我的)?\s*(?:所有|全部)?\s*(?:的)?\s*待办(?:事项|清单|列表)?/,
  /[,.;\s]*(?:and\s+)?(?:then\s+)?(?:also\s+)?(?:please\s+)?(?:list|show)(?:\s+me)?\s+(?:all\s+)?(?:of\s+)?(?:my\s+)?(?:todos|to-dos|to dos|tasks|todo list|to-do list)\b/i,
];

const listTodosPatterns = [
  ...listClausePatterns,
  /我的待办|待办(?:事项)?(?:有哪些|有什么|是什么|清单|列表)/,
  /\bwhat(?:'s| is| are)\s+on\s+my\s+(?:todo|to-do|to do|task)\s+list\b/i,
  /\bmy\s+(?:todos|to-dos|to dos|todo list|to-do list)\b/i,
];

const orderIdPattern = /(?<![A-Za-z0-9])([A-Za-z]\d{4,8})(?![A-Za-z0-9])/;
const orderContextPatterns = [
  /订单|物流|快递|包裹|到哪|在哪|发货|状态|查询|查一下/,
  /\b(?:order|orders|track|tracking|status|where|package|parcel|shipment|delivery|arrive|arriving)\b/i,
];
const orderWithoutIdPatterns = [
  /(?:查询?|查一下|看看|看一下)\s*(?:我的)?\s*订单|订单\s*(?:状态|到哪|在哪|物流)/,
  /\bwhere(?:'s|\s+is)\s+my\s+(?:order|package|parcel)\b|\border\s+status\b|\bstatus\s+of\s+(?:my\s+)?order\b|\btrack\s+(?:my\s+)?(?:order|package|parcel)\b/i,
];

const knowledgePatterns = [
  /退货|退换|退款|退钱|运费|包邮|配送|多久到|送达|快递费|保修|质保|维修|支付|付款|取消订单|怎么取消|换货|发票|开票|政策|物流/,
  /\b(?:returns?|returning|refunds?|shipping|ship|delivery|deliver|warranty|guarantee|repairs?|payments?|pay|cancel|cancellation|exchanges?|invoices?|receipts?|polic(?:y|ies))\b/i,
];

const greetingPatterns = [
  /^\s*(?:你好|您好|嗨|哈喽|早上好|下午好|晚上好|在吗)|你能做什么|你会做什么|你可以做什么|能帮我做什么|你是谁|帮助|怎么用/,
  /^\s*(?:hi|hello|hey|howdy|good\s+(?:morning|afternoon|evening))\b|\bwhat\s+can\s+you\s+do\b|\bhelp\b|\bwho\s+are\s+you\b/i,
];

const questionPattern =
  /[?？]|吗|什么|怎么|如何|哪|多少|\b(?:how|what|why|when|where|which|can|could|do\s+you|is\s+there|are\s+there)\b/i;

const matchAny = (patterns: readonly RegExp[], text: string) =>
  patterns.some((pattern) => pattern.test(text));

function firstMatch(patterns: readonly RegExp[], text: string): RegExpExecArray | undefined {
  let best: RegExpExecArray | undefined;
  for (const pattern of patterns) {
    const match = pattern.exec(text);
    if (match !== null && (best === undefined || match.index < best.index)) best = match;
  }
  return best;
}

const leadingFiller =
  /^(?:[\s:：,，、\-–—]|(?:about|for|regarding|re|on|saying|that\s+says|to)\b|关于|内容是|内容为|说)+/i;
const trailingPunctuation = /[\s。.!！?？,，;；、]+$/;
const wrappingQuotes = /^["'“”‘’「」『』《》]+|["'“”‘’「」『』《》]+$/g;

/** Trims separators, a leading "about"/"关于", quotes and trailing punctuation off a title. */
export function cleanTitle(raw: string): string {
  let title = raw.trim();
  for (let pass = 0; pass < 3; pass++) {
    title = title
      .replace(leadingFiller, '')
      .replace(trailingPunctuation, '')
      .replace(wrappingQuotes, '')
      .trim();
  }
  return title;
}

function parseAddTodo(text: string): Intent | undefined {
  const listClause = firstMatch(listClausePatterns, text);
  const addMatch = firstMatch(addTodoPatterns, text);
  const addToList = addToListPattern.exec(text);
  if (addMatch === undefined && addToList === null) return undefined;
  let title: string;
  if (addMatch !== undefined) {
    const start = addMatch.index + addMatch[0].length;
    const end = listClause !== undefined && listClause.index >= start ? listClause.index : text.length;
    title = text.slice(start, end);
  } else {
    title = addToList?.[1] ?? '';
  }
  return { kind: 'addTodo', title: cleanTitle(title), thenList: listClause !== undefined };
}

/**
 * Reads one user message. Checked in this order, because a message may match several:
 * ticket, add to-do (optionally then list), list to-dos, order status, help-centre
 * question, greeting; anything else is `unknown`.
 */
export function parseIntent(text: string): Intent {
  const ticket = firstMatch(ticketPatterns, text);
  if (ticket !== undefined) {
    return { kind: 'createTicket', title: cleanTitle(text.slice(ticket.index + ticket[0].length)) };
  }
  const addTodo = parseAddTodo(text);
  if (addTodo !== undefined) return addTodo;
  if (matchAny(listTodosPatterns, text)) return { kind: 'listTodos' };

  const orderId = orderIdPattern.exec(text)?.[1];
  const bareOrderId =
    orderId !== undefined && text.trim().replace(/[\s#:：。.!！?？]/g, '').length <= orderId.length + 2;
  if (orderId !== undefined && (bareOrderId || matchAny(orderContextPatterns, text))) {
    return { kind: 'getOrderStatus', orderId: orderId.toUpperCase() };
  }
  if (matchAny(orderWithoutIdPatterns, text)) return { kind: 'getOrderStatus', orderId: '' };

  if (matchAny(knowledgePatterns, text)) return { kind: 'searchKnowledgeBase', query: text.trim() };
  if (matchAny(greetingPatterns, text)) return { kind: 'greeting' };
  return { kind: 'unknown' };
}

/** True when an unrecognised message still reads like a question (worth a help-centre search). */
export function looksLikeQuestion(text: string): boolean {
  return questionPattern.test(text);
}
