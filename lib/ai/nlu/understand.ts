import type { IntentLabel, RequestIntent } from '@/lib/tools/intent-labels';
import { classifyIntent, type IntentReading } from './classify-intent';
import { findRefundAmount, findRefundReason } from './extract-refund';
import { cleanTitle, endWithout, extractTitle } from './extract-title';
import { findOrderIds } from './features';
import {
  asksInSoManyWords,
  type MessageScope,
  readScope,
  readsAsQuestion,
  type UnsupportedRequest,
  type WriteIntent,
} from './message-scope';
import { withoutPastedForm } from './pasted-form';
import { personTitle } from './person-title';
import { resolveCorrections } from './resolve-corrections';
import { searchQuery } from './search-query';
import { withActionWordsSpelled } from './words';

/**
 * One request a message makes: the classifier's label for it, with the argument read from it
 * (`''` / `[]` when missing). The tool whose facts name the label (`offline.intent`) answers it.
 */
export type ToolRequest =
  | TicketRequest
  | RefundRequest
  | { intent: 'getOrderStatus'; orderIds: string[] }
  | { intent: 'searchKnowledgeBase'; query: string }
  | { intent: 'addTodo'; title: string }
  | { intent: 'listTodos' };

/** A ticket: its title, and the order it is about when the message names exactly one. */
export type TicketRequest = { intent: 'createTicket'; title: string; orderId?: string };

/**
 * A request for money back: the order (exactly one, else none and the model asks which), the
 * amount and the currency the person named, if any, and the reason in their words (`''`: none).
 */
export type RefundRequest = {
  intent: 'issueRefund';
  orderIds: string[];
  amount?: number;
  currency?: string;
  reason: string;
};

/**
 * What a request gives its tool: its title, question or order numbers; `undefined` for a request
 * that takes nothing. The tool's facts say which input field it fills (`offline.argument`).
 */
export function requestArgument(request: ToolRequest): string | readonly string[] | undefined {
  if ('title' in request) return request.title;
  if ('query' in request) return request.query;
  if ('orderIds' in request) return request.orderIds;
  return undefined;
}

/** The fields a request fills besides its argument (a refund's amount, currency and reason, a ticket's order); `{}` for the others. */
export function requestDetails(request: ToolRequest): Readonly<Record<string, string | number | undefined>> {
  if (request.intent === 'createTicket')
    return request.orderId === undefined ? {} : { orderId: request.orderId };
  if (request.intent !== 'issueRefund') return {};
  return { amount: request.amount, currency: request.currency, reason: request.reason };
}

/** A refund request read from one text; `answer`: the text answers a question, so a bare number is the amount. */
function refundRequestOf(text: string, { answer = false }: { answer?: boolean } = {}): RefundRequest {
  const orderIds = findOrderIds(text);
  return {
    intent: 'issueRefund',
    // Two orders in one refund request: ask which, rather than pay the same amount twice.
    orderIds: orderIds.length === 1 ? orderIds : [],
    ...findRefundAmount(text, { answer }),
    reason: findRefundReason(text),
  };
}

/**
 * A refund request completed from a conversation: what earlier messages of it said (oldest
 * first), with the latest message, the answer to a question, filling in or correcting it.
 */
function completedRefund(text: string, earlier: readonly string[]): RefundRequest {
  let request: RefundRequest = { intent: 'issueRefund', orderIds: [], reason: '' };
  const readings = [
    ...earlier.map((message) => refundRequestOf(message)),
    refundRequestOf(text, { answer: true }),
  ];
  for (const reading of readings) {
    request = {
      intent: 'issueRefund',
      orderIds: reading.orderIds.length > 0 ? reading.orderIds : request.orderIds,
      amount: reading.amount ?? request.amount,
      currency: reading.amount === undefined ? request.currency : reading.currency,
      reason: reading.reason === '' ? request.reason : reading.reason,
    };
  }
  if (request.amount === undefined) delete request.amount;
  if (request.currency === undefined) delete request.currency;
  return request;
}

/**
 * Reads a whole message as the argument of a request of `intent`: the answer to the question
 * asking for it. `earlier`: the user messages of the same request before the question (oldest
 * first), for a request that takes several fields (a refund's order, amount and reason).
 */
export function answerRequest(
  intent: RequestIntent,
  text: string,
  earlier: readonly string[] = [],
): ToolRequest {
  switch (intent) {
    case 'issueRefund':
      return completedRefund(text, earlier);
    case 'createTicket':
      return withOrderOf(
        { intent, title: personTitle(cleanTitle(text), text) },
        [...earlier, text].join('\n'),
      );
    case 'addTodo':
      return { intent, title: personTitle(cleanTitle(text), text) };
    case 'getOrderStatus':
      return { intent, orderIds: findOrderIds(text) };
    case 'searchKnowledgeBase':
      return { intent, query: text.trim() };
    case 'listTodos':
      return { intent };
  }
}

/** A ticket with the order it is about, when `text` names exactly one. */
function withOrderOf(request: TicketRequest, text: string): TicketRequest {
  const orderIds = findOrderIds(text);
  return orderIds.length === 1 ? { ...request, orderId: orderIds[0] } : request;
}

/** What a whole message asks for. */
export type Understanding = {
  /** The requests, in the order the user made them. */
  requests: ToolRequest[];
  /** The reading of the first clause, for messages that ask for nothing (greeting, thanks, other). */
  intent: IntentLabel;
  /** The classifier's probability for the first request (or for `intent` when there is none). */
  confidence: number;
  /**
   * A write (ticket, refund or to-do) the message may ask for, read without the margin or the
   * words a write needs: it is not in `requests`, and the caller asks before writing anything.
   */
  unsureWrite?: WriteIntent;
  /**
   * Why a message that mentions a request asks for none: it asks for something no tool here does
   * (`outOfScope`), says a write was already done (`alreadyDone`), or says not to do it or drops
   * it (`setAside`). The caller says so, and does nothing.
   */
  declined?: 'outOfScope' | 'alreadyDone' | 'setAside' | 'unsupported';
  /** With `declined: 'unsupported'`: what was asked that no tool does (cancel or change a ticket, to-do or order). */
  unsupported?: UnsupportedRequest;
  /** It asks for a person; `unsureWrite` is then a ticket, the way to reach one. */
  wantsPerson?: true;
};

export type { WriteIntent };

const isWriteIntent = (intent: IntentLabel): intent is WriteIntent =>
  intent === 'createTicket' || intent === 'issueRefund' || intent === 'addTodo';

/**
 * How far ahead of the runner-up a ticket, refund or to-do reading must be (in probability) to
 * become a call. Calibrated on the generated held-out corpus: its wrong write readings led by 0.08
 * and 0.14, and 99 % of the right ones by more than 0.16; with refunds learned, its one wrong write
 * reading leads by 0.06 and 221 of its 223 right ones by 0.15 or more. A missed write costs a
 * rephrase; an unwanted one costs trust.
 */
export const writeMargin = 0.15;

/** How far the best reading leads the second best. */
function marginOf({ probabilities }: IntentReading): number {
  let best = Number.NEGATIVE_INFINITY;
  let second = Number.NEGATIVE_INFINITY;
  for (const label in probabilities) {
    const probability = probabilities[label as IntentLabel];
    if (probability > best) {
      second = best;
      best = probability;
    } else if (probability > second) {
      second = probability;
    }
  }
  return best - second;
}

// Places where a second request may begin: sentence ends, commas, and joining words. A match
// never starts inside a run of whitespace (`(?<!\s)`): it would start at the run's first space
// anyway, and trying every space of a long run again is work that grows with its square.
const clauseBoundary =
  /[?？!！。;；]+\s*|(?<!\s)\s*[,，、]\s*(?:(?:and\s+)?then\s+|also\s+|然后|接着|之后|再|并且|顺便|另外|还有|以及|同时)?|(?<!\s)\s+(?:and\s+then|and\s+also|then|also|and|plus)\s+|(?<!\s)\s*(?:然后|接着|并且|顺便|另外|还有|以及|同时|和|跟)\s*/giu;

/** How many characters of a message are read; the rest is not looked at (see `understoodPart`). */
export const understoodLength = 2000;

/**
 * The part of a message the model reads: its first `understoodLength` characters (never half of
 * a surrogate pair), and whether anything was left out. Every stage is linear in what it reads;
 * the cap keeps a 400,000-character message from costing more than a 2,000-character one.
 */
export function understoodPart(text: string): { text: string; truncated: boolean } {
  if (text.length <= understoodLength) return { text, truncated: false };
  const code = text.charCodeAt(understoodLength - 1);
  const end = code >= 0xd800 && code <= 0xdbff ? understoodLength - 1 : understoodLength;
  return { text: text.slice(0, end), truncated: true };
}

/**
 * At most this many pieces are weighed as clauses of their own; the rest of a longer message
 * joins the last clause. Joining re-reads the clause, so without a bound a message of many
 * commas would be read again for every comma.
 */
const maxPieces = 12;

const isRequest = (intent: IntentLabel) => intent !== 'greeting' && intent !== 'thanks' && intent !== 'other';

/** Below this, a piece is not trusted to be a request of its own, and stays part of its neighbour. */
const clauseConfidence = 0.6;

/** A clause and its reading; `opening` is the reading of its first piece, before later pieces joined it. */
type Clause = { text: string; reading: IntentReading; opening: IntentReading };

// The thing a ticket or to-do request names; a piece that names it again asks for another one.
const requestObject: Partial<Record<IntentLabel, RegExp>> = {
  createTicket: /ticket|工单/i,
  addTodo: /to-?do|待办/i,
};

/** True when two neighbouring pieces each ask for their own ticket (or to-do), each with a title. */
function repeatsRequest(intent: IntentLabel, previous: string, piece: string): boolean {
  const object = requestObject[intent];
  if (object === undefined || !object.test(previous) || !object.test(piece)) return false;
  return extractTitle(previous, intent) !== '' && extractTitle(piece, intent) !== '';
}

/**
 * Cuts a message into clauses that each ask for one thing. A cut is kept only when both sides
 * read confidently as different requests ("Where's A1005 and how do refunds work?"), or as the
 * same request made twice, each naming its ticket or to-do ("create a ticket: A and create a
 * ticket: B"); otherwise the pieces stay together, so "remind me to call mom and dad" remains one to-do.
 */
function splitClauses(text: string): Clause[] {
  const pieces: string[] = [];
  let last = 0;
  for (const match of text.matchAll(clauseBoundary)) {
    const end = match.index + match[0].length;
    if (match.index > last) pieces.push(text.slice(last, end));
    else if (pieces.length > 0) pieces[pieces.length - 1] += match[0];
    last = end;
  }
  if (last < text.length) pieces.push(text.slice(last));
  if (pieces.length > maxPieces) pieces.splice(maxPieces - 1, Infinity, pieces.slice(maxPieces - 1).join(''));
  const clauses: Clause[] = [];
  for (const piece of pieces) {
    const reading = classifyIntent(piece);
    const previous = clauses.at(-1);
    const separate =
      previous !== undefined &&
      isRequest(reading.intent) &&
      isRequest(previous.reading.intent) &&
      (reading.intent !== previous.reading.intent || repeatsRequest(reading.intent, previous.text, piece)) &&
      reading.confidence >= clauseConfidence &&
      previous.reading.confidence >= clauseConfidence;
    if (previous === undefined || separate) {
      clauses.push({ text: piece, reading, opening: reading });
    } else {
      const joined = previous.text + piece;
      clauses[clauses.length - 1] = {
        text: joined,
        reading: classifyIntent(joined),
        opening: previous.opening,
      };
    }
  }
  return clauses;
}

const joinerSeparator = /[\s,，、;；]/u;
const trailingJoinerWord =
  /(?:(?<![A-Za-z])(?:and|then|also|plus)|然后|接着|再|并且|顺便|另外|还有|以及|同时)$/i;

/** A clause without the "and" / "然后" and separators it ends with (they join it to the next one). */
function withoutTrailingJoiner(clause: string): string {
  let end = endWithout(clause, joinerSeparator);
  const word = trailingJoinerWord.exec(clause.slice(Math.max(0, end - 5), end));
  if (word !== null) end = endWithout(clause, joinerSeparator, end - word[0].length);
  return clause.slice(0, end);
}

/**
 * "Is A1005 eligible for a refund?", "can I get my money back for a sweater that shrank?": a
 * question about refunds that names no amount is a help-centre search. Money moves only for a
 * request that says how much; the person can still ask for the refund itself.
 */
function refundQuestion(clause: string, whole: string, single: boolean): ToolRequest {
  return { intent: 'searchKnowledgeBase', query: single ? whole.trim() : clause.trim() };
}

function requestOf(
  intent: IntentLabel,
  clause: string,
  whole: string,
  single: boolean,
): ToolRequest | undefined {
  const text = withoutTrailingJoiner(clause);
  switch (intent) {
    case 'createTicket':
    case 'addTodo':
      return { intent, title: extractTitle(text, intent) };
    case 'issueRefund': {
      // The reason may sit in a clause of its own ("订单 A1002 退 80 元，收到时坏了").
      const refund = refundRequestOf(single ? whole : text);
      return refund.amount === undefined && looksLikeQuestion(text)
        ? refundQuestion(text, whole, single)
        : refund;
    }
    case 'getOrderStatus':
      return { intent, orderIds: findOrderIds(text) };
    case 'searchKnowledgeBase':
      // A one-question message is searched as typed; a clause is searched on its own.
      return { intent, query: single ? whole.trim() : text.trim() };
    case 'listTodos':
      return { intent };
    default:
      return undefined;
  }
}

// ASCII punctuation and symbols. Chinese punctuation (：、（）) is how Chinese is written, so it is not counted.
const asciiSymbol = /[!-/:-@[-`{-~]/g;

/**
 * True when a clause reads like words: at most a fifth of its visible characters are ASCII
 * symbols. A write is only read from such a clause: a run of symbols with a few letters in it
 * ("hello f8|G!`:p>9") can land near a write intent by character n-grams, and must not create
 * a ticket or a to-do. `/tool` commands are the way to write exact, symbol-heavy input.
 */
function readsLikeWords(clause: string): boolean {
  const visible = clause.replace(/\s+/g, '');
  if (visible === '') return false;
  return (visible.match(asciiSymbol)?.length ?? 0) / visible.length <= 0.2;
}

/**
 * Reads a user message: its clauses, each classified, with titles and order numbers extracted.
 * Only the first `understoodLength` characters are read.
 */
export function understand(message: string): Understanding {
  // Typos in the action words are read as the words meant; the last word of a correction wins.
  // A pasted order confirmation is the shop's words: only its order numbers are kept.
  const resolved = resolveCorrections(
    withActionWordsSpelled(withoutPastedForm(understoodPart(message).text)),
    asksSomething,
  );
  const { text } = resolved;
  if (resolved.dropped) {
    const reading = classifyIntent(text);
    return { requests: [], intent: reading.intent, confidence: reading.confidence, declined: 'setAside' };
  }
  // "thanks, what else can you do?": thanks, then what the assistant can do is asked; nothing to search.
  if (thanksThenCapabilities.test(text)) {
    const reading = classifyIntent(text);
    return { requests: [], intent: 'greeting', confidence: reading.probabilities.greeting };
  }
  const clauses = splitClauses(text);
  const single = clauses.length === 1;
  const requests: ToolRequest[] = [];
  let confidence: number | undefined;
  let unsureWrite: Understanding['unsureWrite'];
  for (const { text: clause, reading } of clauses) {
    const writes = isWriteIntent(reading.intent);
    if (writes && !readsLikeWords(clause)) continue;
    if (
      reading.intent === 'issueRefund' &&
      marginOf(reading) < writeMargin &&
      looksLikeQuestion(clause) &&
      findRefundAmount(clause).amount === undefined
    ) {
      confidence ??= reading.probabilities.searchKnowledgeBase;
      requests.push(refundQuestion(clause, text, single));
      continue;
    }
    if (writes && marginOf(reading) < writeMargin) {
      // Not sure it asks for a write; naming an order, it is most likely about that order (a read is safe).
      const orderIds = findOrderIds(clause);
      if (orderIds.length > 0) {
        confidence ??= reading.probabilities.getOrderStatus;
        requests.push({ intent: 'getOrderStatus', orderIds });
      } else {
        unsureWrite ??= reading.intent as WriteIntent;
      }
      continue;
    }
    const request = requestOf(reading.intent, clause, text, single);
    if (request === undefined) continue;
    confidence ??= reading.confidence;
    requests.push(request);
  }
  const merged = withOneRefund(requests, text);
  // "你好，今天天气不错": a greeting with a remark after it is still a greeting.
  const opening = clauses[0]?.opening;
  const first =
    clauses[0]?.reading.intent === 'other' &&
    opening?.intent === 'greeting' &&
    opening.confidence >= clauseConfidence
      ? opening
      : (clauses[0]?.reading ?? classifyIntent(text));
  return withinScope(
    {
      requests: merged,
      intent: first.intent,
      confidence: confidence ?? first.confidence,
      ...(unsureWrite === undefined ? {} : { unsureWrite }),
    },
    text,
  );
}

/** True when a piece of a message asks for something by itself: read confidently as a request, or a write asked for in so many words. */
function asksSomething(piece: string): boolean {
  const reading = classifyIntent(piece);
  if (isRequest(reading.intent) && reading.confidence >= clauseConfidence) return true;
  return readScope(piece).asked.size > 0;
}

// Thanks (or "ok", "cool"), then a question about what the assistant can do, and nothing else.
const thanksThenCapabilities =
  /^\W*(?:(?:ok(?:ay)?|cool|great|nice|good|好的?|嗯)\W*)?(?:thanks?(?:\s+you)?|thx|ty|cheers|谢谢(?:你|您)?|谢啦|多谢)[\s,，.。!！~～]+(?:(?:and|so)\s+)?(?:what\s+(?:else|other\s+things)\s+(?:can|could|do)\s+(?:you|u)\s+(?:do|help(?:\s+(?:me\s+)?with)?)|(?:你|您)?还(?:能|会|可以)(?:帮我)?(?:做|干)?(?:什么|啥|嘛|些什么))[\s?？!！.。]*$/iu;

// A statement (no question) that is still a help-centre topic: "return policy for shoes", "运费规则".
const helpTopic =
  /\b(?:polic(?:y|ies)|shipping|returns?|warranty|invoice|delivery|payment|exchange|guarantee|faq)\b|政策|运费|保修|发票|退货|换货|支付|付款|配送|规则|流程/iu;

/** A write the rules found asked for in so many words, which the classifier did not read; `undefined` when it lacks what a call needs. */
function askedWrite(intent: WriteIntent, text: string): ToolRequest | undefined {
  if (intent === 'issueRefund') {
    const refund = refundRequestOf(text);
    return refund.amount !== undefined && refund.orderIds.length === 1 ? refund : undefined;
  }
  const title = extractTitle(text, intent);
  return { intent, title: title === '' ? titleBesideRequest(text, intent) : title };
}

const sentencePiece = /[^,，.。!！?？;；\n]+/gu;

/**
 * "A1008 的耳机没声音，帮我建个工单": the sentences that do not ask for the ticket (or to-do) are
 * its title; `''` when every sentence asks, or none is left.
 */
function titleBesideRequest(text: string, intent: 'createTicket' | 'addTodo'): string {
  const pieces = [...text.matchAll(sentencePiece)].map((match) => match[0]);
  // A sentence that reads as another request ("…, and list your to-dos") is that request, not the
  // title; one that names an order ("A1008 的耳机没声音") is the problem, so it stays.
  const rest = pieces.filter((piece) => {
    if (asksInSoManyWords(piece, intent)) return false;
    const reading = classifyIntent(piece);
    const other =
      reading.intent === 'listTodos' ||
      (isWriteIntent(reading.intent) && reading.intent !== intent) ||
      (reading.intent === 'searchKnowledgeBase' && readsAsQuestion(piece));
    return !(other && reading.confidence >= clauseConfidence);
  });
  if (rest.length === pieces.length) return '';
  return personTitle(cleanTitle(rest.join(/\p{Script=Han}/u.test(text) ? '，' : ', ')), text);
}

/**
 * The classifier's requests, kept only where the whole message bears them out (see
 * `readScope`): a ticket, to-do or refund only when it is asked for in so many words and not
 * refused or already done; an order lookup beside a write, a refusal or "forget it" only when
 * the message asks where the order is; a help-centre search only for a question or a help topic.
 * A write asked for in so many words that the classifier read as something else (most often the
 * lookup of the order it names) takes that request's place. A ticket takes the order it names.
 */
function withinScope(understanding: Understanding, text: string): Understanding {
  const scope = readScope(text);
  const orderIds = findOrderIds(text);
  const { unsureWrite: _unsure, ...rest } = understanding;
  // "你好，今天天气不错": a remark after a greeting asks for nothing, in scope or not.
  const chat = understanding.intent === 'greeting' || understanding.intent === 'thanks';
  if (scope.outOfScope && !chat && scope.asked.size === 0 && orderIds.length === 0)
    return { ...rest, requests: [], declined: 'outOfScope' };
  const setAside = scope.refused.size > 0 || scope.alreadyDone.size > 0 || scope.dropsIt;
  let unsureWrite = setAside ? undefined : understanding.unsureWrite;
  const kept: ToolRequest[] = [];
  // "…, is that covered by warranty?": a write the classifier half read, in a question nobody asked a write in, is searched.
  if (
    unsureWrite !== undefined &&
    !scope.asked.has(unsureWrite) &&
    scope.question &&
    understanding.requests.length === 0
  ) {
    kept.push({ intent: 'searchKnowledgeBase', query: text.trim() });
    unsureWrite = undefined;
  }
  for (const request of understanding.requests) {
    // "我的 to-do list 里还有啥": a question about the list is a listing, whatever its words looked like.
    if (scope.asksList && (request.intent === 'addTodo' || request.intent === 'listTodos')) {
      if (!kept.some((other) => other.intent === 'listTodos')) kept.push({ intent: 'listTodos' });
      continue;
    }
    if (isWriteIntent(request.intent)) {
      if (scope.asked.has(request.intent)) kept.push(request);
      else if (scope.question && !kept.some((other) => other.intent === 'searchKnowledgeBase') && !setAside)
        kept.push({ intent: 'searchKnowledgeBase', query: text.trim() });
      else if (!setAside) unsureWrite ??= request.intent;
    } else if (request.intent === 'getOrderStatus') {
      if (scope.asksStatus || (scope.asked.size === 0 && !setAside)) kept.push(request);
    } else if (request.intent === 'searchKnowledgeBase') {
      if (scope.question || helpTopic.test(request.query)) kept.push(request);
    } else if (request.intent === 'listTodos') {
      // "最近有什么活动" is no listing of to-dos: a question that names no list is searched instead.
      if (scope.namesList) kept.push(request);
      else if (scope.question && !kept.some((other) => other.intent === 'searchKnowledgeBase'))
        kept.push({ intent: 'searchKnowledgeBase', query: text.trim() });
    } else {
      kept.push(request);
    }
  }
  const missing = [...scope.asked].filter((intent) => !kept.some((request) => request.intent === intent));
  // "how do I open a ticket?" names a ticket in a question the classifier read as one: no write is added to it.
  const classifierSearched =
    scope.question && understanding.requests.some((request) => request.intent === 'searchKnowledgeBase');
  if (!kept.some((request) => isWriteIntent(request.intent)) && missing.length > 0 && !classifierSearched) {
    const added = missing.flatMap((intent) => askedWrite(intent, text) ?? []);
    if (added.length === 1) kept.push(added[0] as ToolRequest);
    else if (added.length > 1) unsureWrite ??= missing[0];
  }
  // "no ticket, I just need to know if A1004 shipped": with the write set aside, the order's status is what is asked.
  if (
    setAside &&
    scope.asksStatus &&
    orderIds.length > 0 &&
    !kept.some((request) => request.intent === 'getOrderStatus')
  )
    kept.push({ intent: 'getOrderStatus', orderIds });
  // "I don't want a refund, I just need to know when A1004 will ship": the lookup answers it; a search of the message does not.
  if (setAside && scope.asksStatus && kept.some((request) => request.intent === 'getOrderStatus'))
    for (let index = kept.length - 1; index >= 0; index -= 1)
      if (kept[index]?.intent === 'searchKnowledgeBase') kept.splice(index, 1);
  // "Kindly provide the list of my to-do items": the list, asked for in other words than the classifier knows.
  if (kept.length === 0 && scope.asksList && scope.asked.size === 0) {
    kept.push({ intent: 'listTodos' });
    unsureWrite = undefined;
  }
  // "hello hello is this thing on okay so what payment methods do you take": a help question after a greeting is still asked.
  if (kept.length === 0 && chat && scope.question && scope.asked.size === 0 && helpTopic.test(text)) {
    kept.push({ intent: 'searchKnowledgeBase', query: text.trim() });
    unsureWrite = undefined;
  }
  // "不用加待办，帮我查下退货政策就行", "don't add it to my to-dos, just look up the return policy": what is looked up instead.
  if (kept.length === 0 && scope.refused.size > 0) {
    const instead = lookupInstead.exec(text);
    if (instead?.[1] !== undefined && helpTopic.test(instead[1]))
      kept.push({ intent: 'searchKnowledgeBase', query: instead[1].trim() });
  }
  const requests = withListAfterTodo(
    oneCallPerRequest(kept, text, scope).map((request) => {
      if (request.intent === 'searchKnowledgeBase') return { ...request, query: searchQuery(request.query) };
      if (request.intent !== 'createTicket' && request.intent !== 'addTodo') return request;
      const titled =
        request.title === '' ? { ...request, title: titleBesideRequest(text, request.intent) } : request;
      return titled.intent === 'createTicket' ? withOrderOf(titled, text) : titled;
    }),
  );
  // "A1006 hmm": a message that names an order and asks nothing else is most likely about that order (a read is safe).
  if (
    requests.length === 0 &&
    orderIds.length > 0 &&
    !setAside &&
    !scope.outOfScope &&
    !scope.wantsPerson &&
    scope.unsupported === undefined &&
    scope.asked.size === 0 &&
    unsureWrite === undefined &&
    !chat
  )
    requests.push({ intent: 'getOrderStatus', orderIds });
  // Asked for a person, or for what no tool does, a search of the whole message answers nothing.
  // "A1006 still not here, get me a human": an order named beside the wish for a person, not asked about, is no lookup.
  const onlyReads = requests.every(
    (request) =>
      request.intent === 'searchKnowledgeBase' ||
      (request.intent === 'getOrderStatus' &&
        (scope.unsupported?.object === 'order' || (scope.wantsPerson && !scope.asksStatus))),
  );
  if (requests.length > 0 && !((scope.unsupported !== undefined || scope.wantsPerson) && onlyReads))
    return { ...rest, requests, ...(unsureWrite === undefined ? {} : { unsureWrite }) };
  requests.length = 0;
  // "cancel my ticket TK-000123": no tool does that; say so, and what it can do instead.
  if (scope.unsupported !== undefined)
    return { ...rest, requests, declined: 'unsupported', unsupported: scope.unsupported };
  // "I want a human": a ticket is how a person gets to it, so one is offered.
  if (scope.wantsPerson && !setAside && scope.alreadyDone.size === 0)
    return { ...rest, requests, unsureWrite: 'createTicket', wantsPerson: true };
  if (scope.alreadyDone.size > 0) return { ...rest, requests, declined: 'alreadyDone' };
  if (setAside) return { ...rest, requests, declined: 'setAside' };
  return { ...rest, requests, ...(unsureWrite === undefined ? {} : { unsureWrite }) };
}

// The lookup a message asks for after setting a write aside: "just look up …", "就查下…".
const lookupInstead =
  /(?:\bjust\s+|\bonly\s+|只|就|帮我|麻烦)\s*(?:look\s+up|check|find|search(?:\s+for)?|tell\s+me|查(?:一下|下|查)?|搜(?:一下|下)?|看(?:一下|下)?)\s*([^.!?。！？\n]{2,120}?)\s*(?:就行了?|就好|即可|就可以了?|thanks|pls|please)?\s*(?:$|[.!?。！？\n])/iu;

// A request to see the list at the end of a to-do's title: ", and after show me all todo", "，再列", "然后给我看看待办".
const listAfterTitle =
  /(?:[\s,，]+(?:and\s+)?(?:then\s+|after(?:wards)?\s+|also\s+)?(?:show|list|see|view|give)\s+(?:me\s+)?(?:all\s+|my\s+|the\s+){0,2}(?:to-?dos?|list|tasks)\b|\s*[，,]\s*(?:然后|再)\s*(?:把|给我)?\s*(?:待办|列表|清单)?\s*(?:列|看|显示|给我看))[\s\S]{0,40}$/iu;

/** A to-do whose title ends by asking to see the list is that to-do, then the listing. */
function withListAfterTodo(requests: readonly ToolRequest[]): ToolRequest[] {
  return requests.flatMap((request, index): ToolRequest[] => {
    if (request.intent !== 'addTodo') return [request];
    const cue = listAfterTitle.exec(request.title);
    if (cue === null || cue.index === 0) return [request];
    const listed = requests.slice(index + 1).some((other) => other.intent === 'listTodos');
    const trimmed: ToolRequest = { intent: 'addTodo', title: request.title.slice(0, cue.index).trim() };
    return listed ? [trimmed] : [trimmed, { intent: 'listTodos' }];
  });
}

export type { MessageScope, UnsupportedRequest };
export { searchQuery };

// Asking to see the list, not only naming it: "list my todos", "what's on my list", "列出", "有哪些".
const listAsked =
  /\b(?:list|show|see|view|read|tell\s+me|what(?:'s|’s|\s+is|\s+are|s)?|which|anything)\b[^.?!。？！\n]{0,40}\b(?:to-?dos?|list|tasks|reminders|plate|agenda)\b|\blist\s+(?:them|it)\b|列出|列一下|列表给|给我看|看看|看一下|有哪些|有什么|有啥|都有|显示|再列|还有什么|没做|没干|要做/iu;
// A to-do title that is a piece of the question about the list ("的那些待", "列表给"), not a task.
const listFragment = /待办|列表|清单|\b(?:to-?do\s+list|my\s+list|my\s+to-?dos)\b/iu;

/**
 * One request, one call: a question about the list never also adds a to-do made of its words, a
 * to-do asked for in so many words is not also a listing unless the list is asked to be seen, and
 * a search of the whole message beside a write asked for in so many words is no request of its own.
 */
function oneCallPerRequest(
  requests: readonly ToolRequest[],
  text: string,
  scope: MessageScope,
): ToolRequest[] {
  const lists = requests.some((request) => request.intent === 'listTodos');
  const adds = requests.some((request) => request.intent === 'addTodo');
  const writes = requests.some(
    (request) => isWriteIntent(request.intent) && scope.asked.has(request.intent as WriteIntent),
  );
  return requests.filter((request) => {
    if (request.intent === 'addTodo' && lists && listFragment.test(request.title)) return false;
    if (
      request.intent === 'listTodos' &&
      adds &&
      scope.asked.has('addTodo') &&
      !listAsked.test(withoutTitles(requests, text))
    )
      return false;
    if (request.intent === 'searchKnowledgeBase' && writes && request.query === text.trim()) return false;
    return true;
  });
}

/** `text` without the to-do titles the requests carry, so a title's words are not read as asking for the list. */
function withoutTitles(requests: readonly ToolRequest[], text: string): string {
  return requests.reduce(
    (rest, request) =>
      request.intent === 'addTodo' && request.title !== '' ? rest.replace(request.title, ' ') : rest,
    text,
  );
}

/**
 * A message asks for at most one refund, read from the whole message: its order, amount and
 * reason are often in clauses of their own ("A1004 的台灯坏了，退我 50 元"), which may read as a
 * lookup of that order. The refund takes the place of the first refund clause, and a lookup of
 * only its own order goes. Two orders or two amounts leave it incomplete, so the model asks
 * instead of paying twice.
 */
function withOneRefund(requests: readonly ToolRequest[], text: string): ToolRequest[] {
  const first = requests.findIndex((request) => request.intent === 'issueRefund');
  if (first < 0) return [...requests];
  const refund = refundRequestOf(text);
  const refundOrders = new Set(findOrderIds(text).length === 1 ? findOrderIds(text) : []);
  return requests.flatMap((request, index): ToolRequest[] => {
    if (request.intent === 'issueRefund') return index === first ? [refund] : [];
    if (request.intent === 'getOrderStatus' && request.orderIds.every((id) => refundOrders.has(id)))
      return [];
    return [request];
  });
}

const questionPattern =
  /[?？]|吗|什么|怎么|如何|哪|多少|\b(?:how|what|why|when|where|which|can|could|do\s+you|is\s+there|are\s+there)\b/i;

/** True when a message that asks for nothing still reads like a question (worth a help-centre search). */
export function looksLikeQuestion(text: string): boolean {
  return questionPattern.test(text);
}
