import { findRefundAmount } from './extract-refund';
import { findOrderIds, orderIdPattern } from './features';
import { chineseWords } from './words';

/*
 * People correct themselves mid-message: "refund 40 on A1002 … no, make it 30", "where's A1002,
 * I mean A1005", "remind me to call Tom — no, call Anna", "空调不制冷，哦说错了，是空调一直滴水".
 * The last word wins. A correction is applied to the text before the rest of the model reads it:
 * an order number replaces the last order number before it, an amount the last amount, and words
 * the words they line up with (same first or last word); a new request after "never mind" / "算了"
 * replaces what came before it. When nothing lines up, the text is left as written.
 */

// "no, …", "sorry, …", "I mean …", "不对，是 …": what follows replaces something said before. Without
// a comma, "no" / "sorry" / "wait" corrects only a number or an order number right after it ("20 usd.. no 25").
const correctionMarker =
  /(?:(?<![A-Za-z])(?:no|nope|sorry|oops|(?:no\s+)?wait|actually|correction)\s*[,，:：]\s*(?:(?:sorry|wait|actually)\s*[,，]?\s*)?(?:i\s+mean[t]?\s+|i\s+meant\s+|make\s+(?:it|that)\s+|it'?s\s+)?|(?<![A-Za-z])(?:sorry\s+)?i\s+mean[t]?\s*[,，]?\s*|(?<![A-Za-z])(?:no\s+)?make\s+(?:it|that)\s+|(?<![A-Za-z])(?:no|nope|sorry|oops|(?:no\s+)?wait|actually)\s+(?=(?:US\$|\$|¥|￥)?\d|[A-Za-z]\d{4}(?![A-Za-z0-9]))|(?:哦|啊|噢)?(?:不对|说错了|打错了|写错了|口误|更正一下|更正)\s*[，,：:]?\s*(?:是|应该是|改成|改为)?|(?:啊|哦|噢)不\s*[，,]\s*(?:是)?|我是说)/giu;

// "never mind", "算了": what came before is dropped; a request after it is what the message asks.
const dropMarker =
  /(?<![A-Za-z])(?:never\s*mind|nvm|forget\s+(?:it|that)|scratch\s+that)(?![A-Za-z])\s*[,，.。!！]?|算了(?:算了)?\s*[，,。！!]?|不用了\s*[，,。！!]?/giu;

// What makes a "never mind" conditional: "没发就算了", "if not, forget it", "otherwise never mind".
const conditional =
  /(?:就|那就|的话|否则|不然|要不)\s*$|\b(?:if\s+not|otherwise|or\s+else)\b[^.!?。！？]{0,20}$/iu;

// Where a correction's words end: the next sentence break, comma or dash.
const contentEnd = /[,，;；。.!！?？…—–]|\s-\s/u;

// A dash after a correction ("call Anna — about the lease") only closed it.
const leadingDash = /^\s*(?:[—–]|\s-\s)\s*/u;

// A correction that only says what it is not ("not the fridge", "不是冰箱") is followed by what it is.
const notLead = /^(?:not\s|不是)/iu;

/** The text read by the rest of the model, and whether the message drops what it asked for. */
export type Resolved = { text: string; dropped: boolean };

/** The words (Latin words and Chinese words) of a piece of text, with offsets. */
function wordsOf(text: string): { text: string; start: number; end: number }[] {
  const latin = [...text.matchAll(/[A-Za-z0-9]+(?:['’-][A-Za-z0-9]+)*/gu)].map((match) => ({
    text: match[0].toLowerCase(),
    start: match.index,
    end: match.index + match[0].length,
  }));
  return [...latin, ...chineseWords(text)].sort((a, b) => a.start - b.start);
}

/** The correction's own words: what follows the marker, to the next break ("call Anna", "to Mark", "60 元"). */
function correctionContent(after: string): { content: string; rest: string } {
  let text = after;
  for (let pass = 0; pass < 2; pass += 1) {
    const end = text.search(contentEnd);
    const content = end < 0 ? text : text.slice(0, end);
    if (!notLead.test(content.trim()) || end < 0)
      return { content: content.trim(), rest: end < 0 ? '' : text.slice(end).replace(leadingDash, ' ') };
    text = text.slice(end + 1).trimStart();
  }
  return { content: text.trim(), rest: '' };
}

const amountPattern =
  /(?:US\$|\$|¥|￥|€|\b(?:usd|cny|rmb|eur)\s*)?\d+(?:\.\d+)?\s*(?:块钱|块|元|美元|美金|刀|人民币|dollars?|bucks|usd|cny|rmb|yuan|euros?)?/giu;

/** `before` with its last order number replaced by `id`, or `undefined` when it names none. */
function replaceLastOrderId(before: string, id: string): string | undefined {
  const ids = [...before.matchAll(orderIdPattern)];
  const last = ids.at(-1);
  if (last === undefined) return undefined;
  return `${before.slice(0, last.index)}${id}${before.slice(last.index + last[0].length)}`;
}

/** `before` with its last amount replaced by the correction's, or `undefined` when it names none. */
function replaceLastAmount(before: string, content: string): string | undefined {
  const blanked = before.replace(orderIdPattern, (id) => ' '.repeat(id.length));
  const last = [...blanked.matchAll(amountPattern)].at(-1);
  const amount = [...content.replace(orderIdPattern, ' ').matchAll(amountPattern)].at(-1)?.[0].trim();
  if (last === undefined || amount === undefined) return undefined;
  // A bare number keeps the currency said before it: "20 usd.. no 25" is 25 usd.
  if (/^\d+(?:\.\d+)?$/.test(amount)) {
    const digits = /\d+(?:\.\d+)?/.exec(last[0]);
    if (digits !== null) {
      const at = last.index + digits.index;
      return `${before.slice(0, at)}${amount}${before.slice(at + digits[0].length)}`;
    }
  }
  return `${before.slice(0, last.index)}${amount}${before.slice(last.index + last[0].trimEnd().length)}`;
}

/**
 * `before` with the words the correction lines up with replaced by it: from the last place its
 * first word appears, or up to the last place its last word appears, as many words as it has.
 */
function replaceAlignedWords(before: string, content: string): string | undefined {
  const said = wordsOf(before);
  const corrected = wordsOf(content);
  const first = corrected[0];
  const last = corrected.at(-1);
  if (first === undefined || last === undefined) return undefined;
  const count = corrected.length;
  const startAt = said.findLastIndex((word) => word.text === first.text);
  if (startAt >= 0) {
    const end = said[Math.min(said.length - 1, startAt + count - 1)]?.end ?? before.length;
    return `${before.slice(0, said[startAt]?.start ?? 0)}${content}${before.slice(end)}`;
  }
  const endAt = said.findLastIndex((word) => word.text === last.text);
  if (endAt >= 0) {
    const start = said[Math.max(0, endAt - count + 1)]?.start ?? 0;
    return `${before.slice(0, start)}${content}${before.slice(said[endAt]?.end ?? before.length)}`;
  }
  return undefined;
}

const trailingBreak = /[\s,，;；。.!！?？…—–-]+$/u;

/**
 * Applies the first correction in `text` that lines up with something said before it, or returns
 * `undefined` when there is none: an order number or an amount replaces the last one before it; a
 * correction that asks for something itself ("actually no, add 'water the plants' first") replaces
 * everything before it; other words replace the words they line up with.
 */
function applyCorrection(text: string, asksSomething: (text: string) => boolean): string | undefined {
  for (const marker of text.matchAll(correctionMarker)) {
    if (marker.index === 0) continue;
    const before = text.slice(0, marker.index).replace(trailingBreak, '');
    const { content, rest } = correctionContent(text.slice(marker.index + marker[0].length));
    if (content === '') continue;
    const [id] = findOrderIds(content).slice(-1);
    if (id !== undefined) {
      const replaced = replaceLastOrderId(before, id);
      if (replaced !== undefined) return `${replaced}${rest}`;
    }
    if (/\d/.test(content) && findRefundAmount(content, { answer: true }).amount !== undefined) {
      const replaced = replaceLastAmount(before, content);
      // "refund 20, no wait, 25 (A1006)": the order a pasted form named stays with the amount.
      if (replaced !== undefined) return `${replaced}${id === undefined ? '' : ` (${id})`}${rest}`;
      continue;
    }
    if (id !== undefined) continue;
    if (asksSomething(content)) return carryOrder(before, `${content}${rest}`);
    // "The kettle, I mean the new one, leaks" clarifies rather than corrects: only numbers follow "I mean".
    if (/\bmean/iu.test(marker[0])) continue;
    const replaced = replaceSameKind(before, content) ?? replaceAlignedWords(before, content);
    if (replaced !== undefined) return `${replaced}${rest}`;
  }
  return undefined;
}

// Words of one kind, one of which corrects another: days of the week, days, months, times of day.
const wordKinds = [
  /(?:周|星期|礼拜)[一二三四五六日天]/gu,
  /大后天|后天|明天|今天|昨天|前天/gu,
  /[零一二两三四五六七八九十\d]{1,3}点(?:半|钟)?/gu,
  /\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b/giu,
  /\b(?:january|february|march|april|may|june|july|august|september|october|november|december)\b/giu,
  /\b(?:today|tomorrow|tonight|yesterday)\b/giu,
];

/**
 * "帮我记一下周一去银行，哦不对，是周二", "call the plumber on monday, no wait, tuesday": a correction
 * that is only a day, a month or a time replaces the last word of its kind before it; `undefined`
 * when the correction is something else or nothing of its kind was said.
 */
function replaceSameKind(before: string, content: string): string | undefined {
  const word = content.replace(/^(?:是|it'?s|on|at|in)\s*/iu, '').trim();
  for (const kind of wordKinds) {
    kind.lastIndex = 0;
    const whole = new RegExp(`^(?:${kind.source})$`, kind.flags.replace('g', ''));
    if (!whole.test(word)) continue;
    const last = [...before.matchAll(kind)].at(-1);
    if (last === undefined) return undefined;
    return `${before.slice(0, last.index)}${word}${before.slice(last.index + last[0].length)}`;
  }
  return undefined;
}

/** `after` with the order number `before` named, when `after` names none ("refund me 100 on it"). */
function carryOrder(before: string, after: string): string {
  const [id] = findOrderIds(before);
  return id === undefined || findOrderIds(after).length > 0 ? after : `${after.trim()} (${id})`;
}

/**
 * Reads the corrections and "never mind"s in a message. `asksSomething` says whether a piece of
 * text asks for anything by itself (the caller's reading), so "never mind, just refund me 100"
 * keeps the refund and "open a ticket … never mind, it works now" drops the ticket.
 */
export function resolveCorrections(message: string, asksSomething: (text: string) => boolean): Resolved {
  let text = message;
  for (let pass = 0; pass < 3; pass += 1) {
    const corrected = applyCorrection(text, asksSomething);
    if (corrected === undefined) break;
    text = corrected;
  }
  const drop = [...text.matchAll(dropMarker)].at(-1);
  if (drop === undefined || drop.index === 0) return { text, dropped: false };
  const before = text.slice(0, drop.index);
  // "没发就算了", "if not, never mind": a condition, not a change of mind.
  if (conditional.test(before)) return { text, dropped: false };
  const after = text.slice(drop.index + drop[0].length).trim();
  if (!asksSomething(before)) return { text, dropped: false };
  if (after !== '' && asksSomething(after)) return { text: carryOrder(before, after), dropped: false };
  return { text, dropped: true };
}
