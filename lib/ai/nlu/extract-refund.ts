import { cleanTitle } from './extract-title';
import { orderIdPattern } from './features';

/*
 * The parts of a refund request besides its order number: how much, in which currency if the
 * person named one, and why. Read by rules, not learned: an amount is a number the person marked
 * as money (a currency sign or word) or put right after a word asking for money back; a bare
 * number elsewhere (a shoe size, a date) is never taken for one. The classifier only decides
 * that the clause asks for a refund.
 *
 * A bare 元, 块 or 块钱 is renminbi: that is what a person writing "退 80 元" means, so it names CNY
 * (美元, 港元, 欧元, 日元 name their own currency). A named currency reaches the tool, which refuses
 * an amount in another currency than the order's instead of paying it in the order's unnoticed.
 * Chinese numerals before a currency word ("二十块", "一百五十元") are read as digits.
 */

/** An amount as written: digits with optional thousands commas, and up to any decimals (more than two is refused). */
const number = String.raw`(?<!\d)(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?`;

const currencyBefore = new RegExp(
  String.raw`(US\$|\$|¥|￥|€|\b(?:usd|cny|rmb|eur|hkd|jpy)\b)\s*${number}`,
  'giu',
);
const currencyAfter = new RegExp(
  String.raw`${number}\s*(块钱|块|元|美元|美金|刀|人民币|港元|港币|欧元|日元|\b(?:dollars?|bucks|usd|cny|rmb|yuan|kuai|euros?|eur|hkd|jpy)\b)`,
  'giu',
);
// "refund 50", "back 60", "退 120", "退款 100", "金额 30", "amount: 12.5", "refund of 30".
const afterRefundWord = new RegExp(
  String.raw`(?:\brefund(?:ed)?(?:\s+(?:me|of|for))?|\bback|\bamount(?:\s+(?:of|is))?|退款?(?:金额)?|退回|退给我|退我|金额(?:是|为)?)\s*[:：]?\s*${number}(?![\d.])`,
  'giu',
);
// "120 refunded", "80 back".
const beforeRefundWord = new RegExp(String.raw`${number}\s+(?:refunded|back)\b`, 'giu');
const anyNumber = new RegExp(String.raw`${number}(?![\d.])`, 'gu');

const currencyOfMark: Readonly<Record<string, string>> = {
  $: 'USD',
  us$: 'USD',
  usd: 'USD',
  dollar: 'USD',
  dollars: 'USD',
  bucks: 'USD',
  美元: 'USD',
  美金: 'USD',
  刀: 'USD',
  '¥': 'CNY',
  '￥': 'CNY',
  cny: 'CNY',
  rmb: 'CNY',
  yuan: 'CNY',
  kuai: 'CNY',
  人民币: 'CNY',
  元: 'CNY',
  块: 'CNY',
  块钱: 'CNY',
  港元: 'HKD',
  港币: 'HKD',
  hkd: 'HKD',
  欧元: 'EUR',
  '€': 'EUR',
  eur: 'EUR',
  euro: 'EUR',
  euros: 'EUR',
  日元: 'JPY',
  jpy: 'JPY',
};

const chineseDigits: Readonly<Record<string, number>> = {
  零: 0,
  〇: 0,
  一: 1,
  二: 2,
  两: 2,
  三: 3,
  四: 4,
  五: 5,
  六: 6,
  七: 7,
  八: 8,
  九: 9,
};
const chineseUnits: Readonly<Record<string, number>> = { 十: 10, 百: 100, 千: 1000, 万: 10000 };

/** "二十" → 20, "一百五十" → 150, "两千" → 2000; `undefined` for anything else. */
function chineseNumber(text: string): number | undefined {
  let total = 0;
  let digit: number | undefined;
  for (const character of text) {
    const value = chineseDigits[character];
    if (value === 0) continue;
    if (value !== undefined) {
      if (digit !== undefined) return undefined;
      digit = value;
      continue;
    }
    const unit = chineseUnits[character];
    if (unit === undefined) return undefined;
    total += (digit ?? (total === 0 ? 1 : 0)) * unit;
    digit = undefined;
  }
  total += digit ?? 0;
  return total > 0 ? total : undefined;
}

// Chinese numerals right before a currency word: "二十块", "一百五十元". A lone 一 or 两 is left
// alone: "凹了一块" is "a dent", not one yuan.
const chineseAmount =
  /(?:[零〇一二两三四五六七八九十百千万]{2,8}|[三四五六七八九十])(?=\s{0,2}(?:块|元|美元|美金|刀|人民币))/gu;

const englishUnits: Readonly<Record<string, number>> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
};
const englishWord = String.raw`(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|and)`;
// English number words before a currency word: "twenty dollars", "a hundred and fifty yuan".
const englishAmount = new RegExp(
  String.raw`\b(?:a\s+)?(${englishWord}(?:[\s-]+${englishWord}){0,5})(?=\s+(?:dollars?|bucks|usd|yuan|euros?|rmb)\b)`,
  'giu',
);

/** "twenty five" → 25, "a hundred and fifty" → 150; `undefined` for anything else. */
function englishNumber(words: string): number | undefined {
  let total = 0;
  let current = 0;
  for (const word of words.toLowerCase().split(/[\s-]+/)) {
    if (word === 'and' || word === 'a') continue;
    if (word === 'hundred') current = (current || 1) * 100;
    else if (word === 'thousand') {
      total += (current || 1) * 1000;
      current = 0;
    } else {
      const value = englishUnits[word];
      if (value === undefined) return undefined;
      current += value;
    }
  }
  const value = total + current;
  return value > 0 ? value : undefined;
}

/** The text with Chinese and English amounts written as digits (same meaning, other length: read it, never cut it by offsets). */
const withDigitAmounts = (text: string) => {
  const chinese = /[\u4e00-\u9fff]/u.test(text)
    ? text.replace(chineseAmount, (numeral) => String(chineseNumber(numeral) ?? numeral))
    : text;
  // The English words are looked for only where a currency word follows some word.
  return englishCurrency.test(chinese)
    ? chinese.replace(englishAmount, (whole, words: string) => String(englishNumber(words) ?? whole))
    : chinese;
};
const englishCurrency = /[a-z]\s+(?:dollars?|bucks|usd|yuan|euros?|rmb)\b/iu;

/** What a message says about money: the amount (when exactly one was given), and the currency it named. */
export type RefundAmount = { amount?: number; currency?: string };

type Candidate = { amount: number | undefined; currency?: string };

function toAmount(whole: string | undefined, fraction: string | undefined): number | undefined {
  if (whole === undefined) return undefined;
  // More than two decimals is no amount a person pays: ask rather than round it.
  if (fraction !== undefined && fraction.length > 2) return undefined;
  const value = Number(`${whole.replaceAll(',', '')}${fraction === undefined ? '' : `.${fraction}`}`);
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

/** The text with its order numbers blanked out, so their digits are never read as money. */
const withoutOrderIds = (text: string) => text.replace(orderIdPattern, (id) => ' '.repeat(id.length));

function candidates(text: string, answer: boolean): Candidate[] {
  const marked = [
    ...[...text.matchAll(currencyBefore)].map((match) => ({
      amount: toAmount(match[2], match[3]),
      currency: currencyOfMark[(match[1] ?? '').toLowerCase()],
    })),
    ...[...text.matchAll(currencyAfter)].map((match) => ({
      amount: toAmount(match[1], match[2]),
      currency: currencyOfMark[(match[3] ?? '').toLowerCase()],
    })),
  ];
  if (marked.length > 0) return marked;
  const nearRefund = [...text.matchAll(afterRefundWord), ...text.matchAll(beforeRefundWord)].map((match) => ({
    amount: toAmount(match[1], match[2]),
  }));
  if (nearRefund.length > 0 || !answer) return nearRefund;
  // The answer to "how much?" may be the number alone.
  return [...text.matchAll(anyNumber)].map((match) => ({ amount: toAmount(match[1], match[2]) }));
}

/**
 * The amount a refund request names, and its currency when the person named one. No amount when
 * it names none, several different ones, or one with more than two decimals: the model then asks.
 * `answer`: the message answers "how much?", so a bare number counts.
 */
export function findRefundAmount(text: string, { answer = false }: { answer?: boolean } = {}): RefundAmount {
  const found = candidates(withDigitAmounts(withoutOrderIds(text)), answer);
  const amounts = new Set(found.map((candidate) => candidate.amount));
  if (amounts.size !== 1) return {};
  const [amount] = amounts;
  if (amount === undefined) return {};
  const currencies = new Set(
    found.flatMap((candidate) => (candidate.currency === undefined ? [] : [candidate.currency])),
  );
  return currencies.size === 1 ? { amount, currency: [...currencies][0] } : { amount };
}

// What introduces the reason itself.
const reasonLead =
  /\b(?:because|since|due\s+to|the\s+reason\s+is|reason\s*[:：])\s*|因为|由于|原因是?[:：]?|理由是?[:：]?/iu;
// Where a message's pieces meet: sentence ends, commas, dashes.
const pieceBoundary = /[,，。!！?？;；\n]+|\.(?=\s|$)|\s[-–—]+\s|—/u;
// A piece that asks for the money (not a reason), or states the amount.
const requestPiece =
  /refund|money\s+back|\bback\b|reimburs|\bamount\b|退|金额|申请|[$¥￥]|\b(?:dollars?|usd|cny|rmb|yuan|bucks)\b|块|元/iu;
// The words before and after an order number ("on order A1002", "订单号 A1007", "A1004 的"). The
// quantifiers are bounded, and the words before are looked for only in the few characters before
// the number, so a long run of spaces costs no more than a short one.
const beforeOrderId =
  /(?:\b(?:on|for|of|from|with)\s{1,3})?(?:\b(?:my|the)\s{1,3})?(?:\border(?:\s{1,3}(?:number|no\.?))?\s{0,3}[:：#]?\s{0,3})?(?:(?:订单号?|单号)\s{0,3}[:：]?\s{0,3})?$/iu;
const afterOrderId = /^\s{0,3}(?:的|[:：])?/u;

/** The text with each order number, and the words that introduce it, replaced by a space. */
function withoutOrderPhrases(text: string): string {
  let result = '';
  let last = 0;
  for (const match of text.matchAll(orderIdPattern)) {
    const window = Math.max(last, match.index - 30);
    const before = beforeOrderId.exec(text.slice(window, match.index));
    const start = before === null ? match.index : window + before.index;
    const end = match.index + match[0].length;
    const after = afterOrderId.exec(text.slice(end, end + 4))?.[0].length ?? 0;
    result += `${text.slice(last, start)} `;
    last = end + after;
  }
  return result + text.slice(last);
}

/** The reason a refund request gives, in the person's words, cleaned; `''` when it gives none. */
export function findRefundReason(text: string): string {
  const lead = reasonLead.exec(text);
  if (lead !== null) {
    const rest = cleanTitle(withoutOrderPhrases(text.slice(lead.index + lead[0].length)));
    if (rest !== '') return rest.slice(0, 500);
  }
  const pieces = text
    .split(pieceBoundary)
    .map((piece) => cleanTitle(withoutOrderPhrases(piece).replace(/\s+/g, ' ')))
    .filter(
      (piece) => piece !== '' && !requestPiece.test(piece) && /[\p{L}]{2,}|\p{Script=Han}/u.test(piece),
    );
  const joiner = /\p{Script=Han}/u.test(text) ? '，' : ', ';
  return pieces.join(joiner).slice(0, 500);
}
