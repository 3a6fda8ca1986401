import type { IntentLabel } from '@/lib/tools/intent-labels';
import { classifyIntent } from './classify-intent';
import { normalizeToken, titleTokenContext, titleTokenForm, tokenize } from './features';
import { nluWeights } from './load-weights';
import { asksInSoManyWords } from './message-scope';
import { openingOf, personTitle, problemSentence, sentencesOf } from './person-title';
import { remembered } from './remembered';
import { titleTokenScore } from './title-token-score';

// Also the labels that introduce a title ("subject:", "标题是"): they are not part of it.
const leadingFiller =
  /^(?:[\s:：,，、\-–—]|(?:subject|title|topic)\s*(?:is\b|[:：])|(?:about|for|regarding|re|on|saying|that\s+says|that|to)\b|(?:标题|主题|题目|内容)(?:是|为)?[:：]?|关于|说)+/i;
const closingPunctuation = /[\s。.!！?？,，;；、]/u;
const courtesyClosing = /[\s。.!！?？]/u;
const courtesySeparator = /[\s,，]/u;
const courtesyWord = /(?:please|pls|thanks|thank you|thx|谢谢|谢啦|多谢|麻烦了)$/i;
const quote = /["'“”‘’「」『』《》]/u;

// The trimming below scans from the ends instead of running `…+$` regexes: such a regex tries
// every start position of a long run of spaces or commas again, which grows with the run's square.

/** Where `text` (up to `end`) ends once the characters `pattern` matches are trimmed off its end: a scan, not a regex over the whole text. */
export function endWithout(text: string, pattern: RegExp, end = text.length): number {
  let index = end;
  while (index > 0 && pattern.test(text.charAt(index - 1))) index -= 1;
  return index;
}

/** `title` without the "please" / "thanks" / "谢谢" words (and the spaces and commas before them) it ends with. */
function withoutTrailingCourtesy(title: string): string {
  let cut = -1;
  let end = endWithout(title, courtesyClosing);
  for (;;) {
    const word = courtesyWord.exec(title.slice(Math.max(0, end - 9), end));
    if (word === null) break;
    end = endWithout(title, courtesySeparator, end - word[0].length);
    cut = end;
  }
  return cut < 0 ? title : title.slice(0, cut);
}

function withoutQuotes(title: string): string {
  let start = 0;
  while (start < title.length && quote.test(title.charAt(start))) start += 1;
  return title.slice(start, Math.max(start, endWithout(title, quote)));
}

/** Trims separators, a leading "about"/"关于", a trailing "please"/"谢谢", quotes and trailing punctuation off a title. */
export function cleanTitle(raw: string): string {
  let title = raw.trim();
  for (let pass = 0; pass < 3; pass += 1) {
    title = withoutTrailingCourtesy(title.replace(leadingFiller, ''));
    title = withoutQuotes(title.slice(0, endWithout(title, closingPunctuation))).trim();
  }
  return title;
}

// A request's object and the word that introduces what it is about ("a ticket about", "remind me to").
const requestLead =
  /\b(?:(?:ticket|case|complaint|request|issue)\s+(?:about|for|regarding|saying|that\s+says)|(?:to-?do|task|reminder)\s+(?:about|for|regarding|saying|that\s+says|to)|remind\s+me\s+to|remind\s+me(?=\s+(?!(?:to|about|that|of|when|at|on|in|tomorrow|tonight|later|again|please|pls)\b)[a-z]+\s+\w)|remember\s+(?:me\s+)?to|forget\s+to|(?:add|put|make)\s+(?:a|an|one)?\s*(?:new\s+)?to[\s-]?do(?!\s+list))\s+|\bremind\s*我\s*/i;

// A label that introduces the title anywhere in the message ("The title should be:", "主题：").
const titleLabel =
  /\b(?:subject|title|topic)(?:\s+(?:should\s+be|will\s+be|is))?\s*[:：]|\b(?:titled|entitled|called|named)\s+(?=["'“‘「『《])|(?:标题|主题|题目)(?:是|为|[:：])[:：]?/i;

// Words that name the request itself: a sentence with them is the request, not a title beside it.
const requestWords =
  /ticket|case|complaint|to-?do|task|reminder|\blist\b|remind|工单|单子|开个单|投诉|报修|待办|清单|提醒|记一下|记下/i;

// Where a title may end and the request sentence after it begin.
const sentenceEnd = /[,，.。!！?？;；]/u;

/** How sure the classifier must be that a last clause is the request itself before it is cut off the title. */
const trailingRequestConfidence = 0.7;

const vocabulary: ReadonlySet<string> = new Set(nluWeights.title.vocabulary);

// Words that name a problem or a task without saying what it is: a title made of them is no title.
const vagueTitle =
  /^(?:(?:a|an|the|some|one|my|new)\s+)*(?:problem|issue|complaint|ticket|task|todo|to-do|something|thing|reminder|refund|note)s?$|^(?:一个|个|一些|点)?(?:问题|事情?|投诉|工单|待办|任务|东西)$|^(?:马上|赶紧|赶快|立刻|立即|快点|快)(?:给|帮)?我?$/i;

/**
 * The title in a ticket or to-do request, found by the trained token tagger: the first run of
 * tokens it tags as title, cut from the original text and cleaned; widened to everything after
 * a colon or a lead ("a ticket about"), or to its whole sentence beside a request sentence, and
 * without a request sentence after it. `''` when there is none or it only says "a problem" —
 * the caller then asks for it.
 */
export function extractTitle(text: string, intent: IntentLabel): string {
  return (
    intent === 'addTodo'
      ? todoTitle
      : intent === 'createTicket'
        ? ticketTitle
        : (line: string) => findTitle(line, intent)
  )(text);
}

// Remembered per request: the clause split, the scope and the title beside a request ask for the same title again.
const todoTitle = remembered((text: string) => findTitle(text, 'addTodo'));
const ticketTitle = remembered((text: string) => findTitle(text, 'createTicket'));

function findTitle(text: string, intent: IntentLabel): string {
  const tokens = tokenize(text);
  const context = titleTokenContext(
    tokens.map((token) => titleTokenForm(normalizeToken(token.text), vocabulary)),
  );
  let previous = 'O';
  let start = -1;
  let end = -1;
  for (let index = 0; index < tokens.length; index += 1) {
    const label = titleTokenScore(context, index, previous, intent) > 0 ? 'T' : 'O';
    if (label === 'T') {
      if (start < 0) start = tokens[index]?.start ?? 0;
      end = tokens[index]?.end ?? end;
    } else if (start >= 0) {
      break;
    }
    previous = label;
  }
  let title = start < 0 ? '' : cleanTitle(text.slice(start, end));
  // "create a ticket: <title>" / "工单：<title>": after the colon the person wrote the
  // title themselves; take it whole, even where the tagger stopped early (a title that
  // itself says "ticket", "工单", a word it never saw).
  const colon = text.search(/[:：]/);
  // "the customer wants a ticket opened: <title>": before the colon only the request, so what follows is the title.
  // "在开车 长话短说：<title>": before the colon only an aside, so what follows is the title too.
  const requestBeforeColon =
    colon > 0 && (asksInSoManyWords(text.slice(0, colon), intent) || asideOnly.test(text.slice(0, colon)));
  if (colon >= 0 && (start < 0 || start > colon || requestBeforeColon)) {
    const rest = cleanTitle(text.slice(colon + 1));
    if (
      requestBeforeColon ? rest !== '' : rest.length > title.length && (title === '' || rest.includes(title))
    )
      title = rest;
  }
  // "…, subject: <title>" / "标题是<title>": what a label introduces is the title, wherever the tagger began.
  const label = titleLabel.exec(text);
  if (label !== null) {
    const rest = cleanTitle(quotedOrWhole(text.slice(label.index + label[0].length)));
    if (rest !== '') return personTitle(withoutTrailingRequest(rest, intent), text);
  }
  // "open a ticket about <title>", "remind me to <title>": after the lead the rest is the title, as after a colon.
  const lead = colon < 0 ? requestLead.exec(text) : null;
  let stated = requestBeforeColon && title !== '';
  // A tagger title that is only a greeting ("Hello dear") gives way to what the lead introduces.
  const framed = personTitle(title, text);
  const onlyFrame =
    intent === 'addTodo' &&
    title !== '' &&
    (framed === '' || wordless.test(framed) || vagueTitle.test(framed));
  if (lead !== null && (start < 0 || start >= lead.index || onlyFrame)) {
    const rest = cleanTitle(text.slice(lead.index + lead[0].length));
    // The tagger began inside the lead ("do water the plants" of "add a to do water the plants"): the rest is the title.
    const inLead = start >= lead.index && start < lead.index + lead[0].length;
    if (onlyFrame || inLead || (rest.length > title.length && (title === '' || rest.includes(title)))) {
      title = rest;
      stated = true;
    }
  }
  if (colon < 0) title = wholeSentenceTitle(text, title, start, end, intent);
  // "water the plants and [then show me my list]": the joiner went with the request cut off.
  title = withoutTrailingRequest(title, intent).replace(/[\s,，]+(?:and|then|also|plus)$/iu, '');
  // A scrap the tagger left ("提", "the") is no title, even once widened to whole words.
  if (colon < 0 && label === null && wordless.test(title)) title = '';
  title = personTitle(title, text);
  // An order number alone ("A1005", "(order A1005)") says which order, not what is wrong with it.
  if (orderOnly.test(title)) title = '';
  // A ticket nobody titled in so many words, whose title the tagger lost (a greeting, a letter) or
  // clipped ("the app keeps logging"), is titled by its problem: the first sentence naming it.
  if (intent === 'createTicket' && !stated && colon < 0 && !standsAlone(title, text)) {
    const problem = ticketProblem(text);
    // Clipped: the tagger's title is the problem's start or end, cut inside a clause.
    const before = problem.charAt(problem.length - title.length - 1);
    const clipped =
      title !== problem &&
      (problem.startsWith(title) || (problem.endsWith(title) && !/[\s,，:：;；.。!！?？—–-]/u.test(before)));
    // Or in a greeting ("may concern" of "To whom it may concern, …").
    const inGreeting =
      title !== '' && sentencesOf(text).some((sentence) => openingOf(sentence).includes(title));
    if (problem !== '' && !vagueTitle.test(problem) && (title === '' || clipped || inGreeting))
      title = problem;
  }
  // A scrap the tagger left is no title; what the person wrote after a colon or a label is theirs ("create a ticket: A").
  return vagueTitle.test(title) || (colon < 0 && label === null && wordless.test(title)) ? '' : title;
}

// An aside that only says the message will be short ("娃在哭 长话短说", "简单说一下").
const asideOnly = /^[^，,。！!？?]{0,10}(?:长话短说|简单说一下|简单说|说重点)\s*$/u;

const orderOnly = /^[\s(（]*(?:(?:order|订单)\s*#?\s*)?[A-Za-z]\d{4,8}[\s)）]*$/iu;

// Where a clause begins or ends: the title found there was not cut inside one.
const clauseEdge = /^$|[\s,，:：;；.。!！?？—–-]/u;

/** True when `title` sits in `text` between clause edges (or the text's ends): the tagger did not clip it. */
function standsAlone(title: string, text: string): boolean {
  if (title === '') return false;
  const at = text.indexOf(title);
  if (at < 0) return false;
  const before = text.slice(0, at).trimEnd();
  const after = text.slice(at + title.length).trimStart();
  return clauseEdge.test(before.slice(-1)) && clauseEdge.test(after.slice(0, 1));
}

/** The first sentence of a ticket request that names its problem (see `problemSentence`). */
const ticketProblem = remembered((text: string) =>
  problemSentence(
    text,
    (sentence) => isRequestSentence(sentence, 'createTicket') || asksInSoManyWords(sentence, 'createTicket'),
  ),
);

/** A title that opens with a quote ends at the quote that closes it ("titled "A"? Cheers" → "A"). */
function quotedOrWhole(rest: string): string {
  const opening = /^\s*(["'“‘「『《])/u.exec(rest);
  if (opening === null) return rest;
  const closing = { '"': '"', "'": "'", '“': '”', '‘': '’', '「': '」', '『': '』', '《': '》' }[
    opening[1] as string
  ];
  const end = closing === undefined ? -1 : rest.indexOf(closing, opening[0].length);
  return end < 0 ? rest : rest.slice(0, end + 1);
}

// A lone function word or a single Chinese character is a scrap the tagger left, not a title.
const wordless = /^(?:the|a|an|it|this|that|one|me|my|to|for|of|pls|please|\p{Script=Han})$/iu;

/** True when `clause`, read alone, is read as this request (`sure`: with the confidence a cut needs). */
const readsAs = (clause: string, intent: IntentLabel, { sure = false } = {}) => {
  const reading = classifyIntent(clause);
  return reading.intent === intent && (!sure || reading.confidence >= trailingRequestConfidence);
};

/** True when a sentence is the request itself: read confidently as it, and naming it ("open a ticket …"). A complaint alone is a title. */
const isRequestSentence = (sentence: string, intent: IntentLabel) =>
  requestWords.test(sentence) && readsAs(sentence, intent, { sure: true });

/**
 * The title when the message is one sentence of request and one of title, in either order
 * ("我要投诉，客服电话打不通" / "The kettle leaks again. Could you open a ticket"): the
 * sentence the tagger's title sits in (or, when it found none, the one that is not the
 * request), taken whole as after a colon, when the other sentence reads as the request and the
 * title's sentence does not. The tagger often misses the first word of a sentence that starts
 * with the title.
 */
function wholeSentenceTitle(
  text: string,
  title: string,
  start: number,
  end: number,
  intent: IntentLabel,
): string {
  let first = 0;
  while (first < text.length && !sentenceEnd.test(text.charAt(first))) first += 1;
  let last = text.length - 1;
  while (last > first && !sentenceEnd.test(text.charAt(last))) last -= 1;
  const found = start >= 0;
  // Request first: the title's sentence runs from the first boundary to the end.
  if (first < text.length && (!found || first < start) && readsAs(text.slice(0, first), intent)) {
    const rest = cleanTitle(text.slice(first + 1));
    if (rest.includes(title) && !isRequestSentence(rest, intent)) return rest;
  }
  // Title first: the title's sentence runs from the start to the last boundary.
  if (last > 0 && (!found || last >= end) && readsAs(text.slice(last + 1), intent)) {
    const before = cleanTitle(text.slice(0, last));
    if (before.includes(title) && !isRequestSentence(before, intent)) return before;
  }
  return title;
}

/**
 * A title without the request that follows it in the same message ("The printer is jammed.
 * Can you raise a ticket" → "The printer is jammed"): a last clause that the classifier reads,
 * on its own, as this same request is the request, not the title. At most three are cut.
 */
function withoutTrailingRequest(title: string, intent: IntentLabel): string {
  let rest = title;
  for (let pass = 0; pass < 3; pass += 1) {
    let boundary = rest.length - 1;
    while (boundary > 0 && !sentenceEnd.test(rest.charAt(boundary))) boundary -= 1;
    if (boundary <= 0) break;
    if (!readsAs(rest.slice(boundary + 1), intent, { sure: true })) break;
    rest = cleanTitle(rest.slice(0, boundary));
  }
  return rest;
}
