import { findOrderIds } from './features';

/*
 * People paste an order confirmation or a shipping notice above what they ask ("Order #: A1003 /
 * Total: $38.00 / --- / one of the bottles leaks, can I get 19 dollars back"). The pasted lines
 * are the shop's words, not the person's: their labels are no title ("订单编号"), their totals no
 * refund amount, their "Thank you for your order!" no thanks. Only the order numbers in them are
 * kept, as the order the person's own lines are about.
 */

// A line of a pasted form: a shop's label, then its value ("Total: $38.00", "订单号：A1004", "实付：¥568.00").
const formLabel =
  /^\s*[【[]?\s*(?:order(?:\s*(?:#|no\.?|number|id|date|status))?|date|(?:sub|grand\s+)?total|items?|qty|quantity|price|unit\s+price|shipping(?:\s+(?:method|address))?|delivery|estimated\s+delivery|delivered\s+to|ship(?:ped)?\s+to|status|tracking(?:\s+(?:no\.?|number))?|payment(?:\s+method)?|paid|amount|carrier|from|sent|订单号|订单编号|订单|商品|商品名称|实付|实付款|金额|合计|总计|总价|下单时间|付款时间|收货地址|收货人|地址|状态|订单状态|物流|快递单号|运单号|数量|单价|配送方式)\s*[】\]]?\s*[:：#]/iu;
// A line of a pasted table or item list: cells between bars, or an item with its price ("A1003 - Desk Lamp - $64.90").
const price = String.raw`(?:US)?[$¥￥€]\s?\d[\d,.]*\s*$`;
const formRow = new RegExp(
  String.raw`\s[|｜]\s|^\s*(?:\d+\s*[x×]\s*|[A-Za-z]\d{4,8}\b)[^\n]{0,48}\s${price}|^[^\n]{0,48}[-–—|]\s*${price}`,
  'u',
);
// The person's own words, even beside a price: a request or a question ("please refund $20", "why $38?").
const ownWords =
  /\b(?:refund|ticket|todo|remind|please|pls|can|could|why|where|want)\b|[?？]|退|工单|待办|提醒|帮我|请/iu;
// A heading or a rule of a pasted notice ("ORDER CONFIRMED", "【订单确认】", "----").
const formHeading =
  /^\s*(?:[-—–=_*~·.]{2,}|(?:order\s+(?:confirmation|confirmed|summary|details|receipt)|your\s+order\s+(?:confirmation|summary)|thank\s+you\s+for\s+your\s+order|订单确认|订单详情|物流通知|发货通知)[!！.。]?|【[^】\n]{1,12}】\s*(?:[A-Za-z]\d{4,8})?)\s*$/iu;
// A sentence of the shop's, not the person's ("Your order A1002 has been received.", "您的订单 A1001 已发货，顺丰单号 …").
const shopSentence =
  /^\s*(?:your\s+(?:order|package|parcel|refund\s+request)\b[^\n]{0,80}\b(?:has\s+been|is\s+being|was|is)\b|order\s+[A-Za-z]\d{4,8}\s+(?:shipped|has\s+shipped|was\s+delivered|is\s+on\s+its\s+way)\b|您的(?:订单|包裹)[^\n]{0,60}(?:已|正在))[^\n]*$/iu;

// A line that only names orders ("Order A1007", "订单 A1003，A1007").
const orderLine = /^\s*(?:order|订单(?:号)?)?\s*#?\s*[A-Za-z]\d{4,8}(?:\s*[,，、]\s*[A-Za-z]\d{4,8})*\s*$/iu;

// A line that names an order and what was paid for it ("Order A1006 Total $89.00", "订单 A1003 合计 ¥150").
const orderTotalLine =
  /^\s*(?:order|订单(?:号|编号)?)?\s*[#:：]?\s*[A-Za-z]\d{4,8}\s*[-–—,，|｜]?\s*(?:(?:sub|grand\s+)?total|paid|amount|price|合计|实付款?|总计|总价|金额|已付款?)\s*[:：]?\s*(?:US)?[$¥￥€]?\s?\d[\d,.]*\s*(?:元|块|usd|cny|rmb|dollars?)?\s*$/iu;

const isFormLine = (line: string) =>
  orderLine.test(line) ||
  orderTotalLine.test(line) ||
  formLabel.test(line) ||
  (formRow.test(line) && !ownWords.test(line)) ||
  formHeading.test(line) ||
  shopSentence.test(line);

/**
 * `text` without the lines of a pasted order confirmation or notice, with the order numbers those
 * lines named (when the person's own lines name none) added at the end in brackets. A message of
 * one line, or one whose every line reads as pasted, is returned as it is.
 */
export function withoutPastedForm(text: string): string {
  if (!text.includes('\n')) return text;
  const lines = text.split('\n');
  const pasted = lines.map((line) => line.trim() !== '' && isFormLine(line));
  if (!pasted.includes(true)) return text;
  const own = lines.filter((line, index) => !pasted[index] && line.trim() !== '');
  if (own.length === 0) return text;
  const ownText = own.join('\n');
  if (findOrderIds(ownText).length > 0) return ownText;
  const ids = [...new Set(lines.flatMap((line, index) => (pasted[index] ? findOrderIds(line) : [])))];
  return ids.length === 0 ? ownText : `${ownText} (${ids.join(', ')})`;
}
