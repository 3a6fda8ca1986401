import { forText } from './plain-text-pattern';
import { englishSentences, wordBoundaries } from './words';

/*
 * Titles a person would write: whole words, the greeting, the filler and the sign-off left out,
 * the request itself ("can you open a ticket for that") cut off a run-on sentence, and a long
 * letter summarised to the first sentence that names the problem. Never longer than a tool takes.
 */

/** The longest title the ticket and to-do tools take. */
export const titleLimit = 200;

// Openers: greetings, forms of address, voice-to-text filler and slang that only set the tone.
const openerEn =
  /^(?:\s*(?:(?:hi|hello|hey|hiya|yo|greetings|good\s+(?:morning|afternoon|evening|day))(?:\s+(?:there|dear|all|team|guys|sir|madam|support))*|dear\s+[^,，.!:\n]{1,40}|to\s+whom\s+it\s+may\s+concern|ok(?:ay)?|so|um+|uh+|erm|well|yeah|yes|hmm+|ngl|tbh|lowkey|highkey|bestie|bruh|omg|sir|madam|please\s+be\s+advised\s+that|please\s+note(?:\s+that)?|i\s+regret\s+to\s+inform\s+you\s+that|i\s+am\s+writing\s+to\s+(?:inform|let)\s+you\s+(?:know\s+)?that|this\s+is\s+to\s+inform\s+you\s+that|(?:sorry[\s,]+)?(?:on\s+my\s+phone|typing\s+(?:fast|quick(?:ly)?|one[\s-]handed)|in\s+a\s+(?:rush|hurry))(?:[\s,]+sorry)?(?=\s*[-–—:,]))(?![A-Za-z])[\s,，.!！:：;-]*)+/iu;
const openerZh =
  /^(?:\s*(?:你好|您好|嗨|哈喽|哈啰|在吗|麻烦(?:你|您)?(?!了)|亲爱的[^，,：:！!]{0,8}|本人(?:于|在)|尊敬的[^，,：:！!]{0,8}|致[^，,：:！!]{1,8}[：:]|嗯+|呃+|啊+|那个|就是|就是说|咱就是说|家人们|谁懂啊|救命|绝绝子|破防了|无语|真的会谢|yyds|急死了?|气死了?|烦死了?|[^，,：:！!。\s]{1,6}\s{0,2}(?:长话短说|简单说一下|简单说|说重点)(?=[：:])|(?:客服)?(?:小姐姐|小哥哥|姐姐|妹妹|大大)|(?:客服|亲|宝|宝子|老铁)(?=[\s,，。.!！~～：:、]))[\s,，。.!！~～：:、]*)+/iu;

// Sign-offs and trailing filler: cut from where they begin to the end.
const closingEn =
  /[\s,，.;!]*(?:\b(?:(?:kind|best|warm|many)\s+)?regards\b|\bsincerely\b|\byours\s+(?:faithfully|sincerely|truly)\b|\bcheers\b|\bwith\s+thanks\b|\bthank\s+you\s+in\s+advance\b)[\s\S]{0,60}$|[\s,，.;!]*\bno\s+cap\b[\s\S]{0,40}$|(?:[.!?]{1,3}\s+[^.!?\n]{0,25}?)?[\s,，.;!]*\b(?:gtg|g2g|brb|ttyl|bbl|gotta\s+go|got\s+to\s+go)\b[\s!.,~]*$|[\s,，.;!]*\b(?:thanks?(?:\s+(?:you|so\s+much|a\s+lot))?|thx|ty|pls|please|plz|fr(?:\s+fr)?|lol|lmao|asap|rn)[\s!.,~]*$/iu;
const closingZh =
  /[\s,，。.!！~～]*(?:谢谢(?:你|您|啦|了)?|多谢|谢啦|感谢|麻烦(?:你|您)?了|此致|辛苦了|拜托了?)[\s\S]{0,30}$|[\s,，。.!！~～]*(?:急急急|呗|哈+|啊+|呀)[\s!！~～。.]*$/u;

// The request itself, at the end of a run-on sentence ("… can you open a ticket for that thanks").
const requestTailEn =
  /\s*\b(?:(?:so\s+)?(?:can|could|would|will)\s+(?:you|u)\s+(?:please\s+|pls\s+|kindly\s+)?|(?:please|pls|plz|kindly)\s+)?(?:open|create|make|file|log|raise|submit|start|put\s+in)\s+(?:me\s+)?(?:a|an|one)?\s*(?:new\s+)?(?:support\s+)?(?:ticket|tkt|case|complaint)\b[\s\S]*$|\s*\b(?:ticket|tkt)\s+(?:pls|please|plz)\b[\s\S]*$|\s*\bplease\s+I\s+want\s+(?:to\s+)?make\s+(?:a\s+)?complain[\s\S]*$/iu;
const requestTailZh =
  /(?:(?:马上|赶紧|赶快|立刻|立即|快点|快)?(?:你|您)?(?:可以|能|能不能|可不可以|可否)?(?:帮我|给我|帮忙|麻烦(?:你|您)?|请(?:你|您)?|烦请(?:贵司)?){0,2}(?:为此|为我|给我)?\s{0,2}(?:开|建|提|创建|新建|提交|整|报|登记)\s{0,2}(?:一?个|一下|一张|张|下)?\s{0,2}(?:工单|单子|售后单|售后|修)|(?:帮我|给我|请|麻烦)?(?:报|登记|反馈)一下|(?:特此)?投诉|请予以登记)[\s\S]*$/u;

// A sentence that is about the writer, not the problem ("I am writing on behalf of …").
const introSentence =
  /^(?:i\s+am\s+writing|i'm\s+writing|we\s+are\s+writing|my\s+name\s+is|this\s+is\s+\w+\s+from|i\s+have\s+been\s+a\s+(?:loyal\s+)?customer|我是|本人是)/iu;

const sentenceZh = /[^。！？!?；;\n]+[。！？!?；;]*/gu;
const trailingPunctuation = /[\s,，.。;；:：!！?？、~～—–-]+$/u;
const leadingPunctuation = /^[\s,，.。;；:：!！?？、~～—–-]+/u;

/** The greeting, address or filler `text` opens with (`''`: none), e.g. "To whom it may concern, ". */
export function openingOf(text: string): string {
  return forText(openerEn, text).exec(text)?.[0] ?? forText(openerZh, text).exec(text)?.[0] ?? '';
}

/** `text` without its opener, closing and trailing request, trimmed. */
export function withoutFrame(text: string): string {
  let title = text.replace(forText(slangInside, text), '');
  // Each pattern runs on the title as it stands (see `forText`).
  const cut = (pattern: RegExp) => forText(pattern, title).exec(title);
  for (let pass = 0; pass < 3; pass += 1) {
    const before = title;
    title = title.replace(forText(openerEn, title), '');
    title = title.replace(forText(openerZh, title), '').replace(leadingPunctuation, '');
    const tailEn = cut(requestTailEn);
    if (tailEn !== null && tailEn.index > 0) title = title.slice(0, tailEn.index);
    const tailZh = requestTailZh.exec(title);
    if (tailZh !== null && tailZh.index > 0) title = title.slice(0, tailZh.index);
    const closing = cut(closingEn) ?? closingZh.exec(title);
    if (closing !== null && closing.index > 0) title = title.slice(0, closing.index);
    title = title.replace(trailingPunctuation, '').trim();
    if (title === before) break;
  }
  return title;
}

/** The sentences of a message, in order (English by winkNLP, Chinese at its sentence marks). */
export function sentencesOf(text: string): string[] {
  const english = englishSentences(text);
  return english.flatMap((sentence) => sentence.match(sentenceZh) ?? []).map((sentence) => sentence.trim());
}

/**
 * The first sentence of `text` that names the problem: not a greeting, an introduction, the request
 * (`isRequest`) or a sign-off; with its frame taken off. `''` when there is none.
 */
export function problemSentence(text: string, isRequest: (sentence: string) => boolean): string {
  for (const sentence of sentencesOf(text)) {
    const framed = withoutFrame(sentence);
    if (framed === '' || forText(introSentence, framed).test(framed)) continue;
    if (
      isRequest(sentence) &&
      withoutFrame(sentence.replace(forText(requestTailEn, sentence), '').replace(requestTailZh, '')) === ''
    )
      continue;
    const title = withoutFrame(framed);
    if (title !== '' && !isRequest(title)) return fitted(title);
  }
  return '';
}

/** A title cut to what the tool takes, at the last word boundary that fits. */
function fitted(title: string): string {
  if (title.length <= titleLimit) return title;
  const boundaries = wordBoundaries(title);
  let end = titleLimit;
  while (end > 0 && !boundaries.has(end)) end -= 1;
  return title.slice(0, end).replace(trailingPunctuation, '');
}

/** `title`, found at `start` in `text`, widened to whole words (never starting or ending inside one). */
function wholeWords(title: string, text: string): string {
  const start = text.indexOf(title);
  if (start < 0) return title;
  const boundaries = wordBoundaries(text);
  let from = start;
  let to = start + title.length;
  while (from > 0 && !boundaries.has(from)) from -= 1;
  while (to < text.length && !boundaries.has(to)) to += 1;
  return text.slice(from, to);
}

/**
 * A title as a person would write it, from the one the tagger or a rule found in `text`: whole
 * words, no greeting, filler, sign-off or trailing request, at most `titleLimit` characters.
 * A title that is nothing but its frame is `''` (the caller then asks for one).
 */
export function personTitle(title: string, text: string): string {
  if (title === '') return '';
  return fitted(withoutFrame(wholeWords(title, text)));
}

// Slang that only sets the tone, inside a title as at its ends ("my earbuds are lowkey broken", "bugging out fr fr, it spins").
const slangInside = /\s+(?:lowkey|highkey|fr(?:\s+fr)?|ngl|tbh|istg|deadass)(?=[\s,，.!?]|$)/giu;
