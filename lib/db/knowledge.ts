import { sql } from 'kysely';
import { type Db, engineOf } from './engine';

/** One search result: enough for the model to answer and cite the article. */
export type KnowledgeHit = { id: string; title: string; snippet: string };

type ArticleRow = { id: string; lang: 'zh' | 'en'; title: string; body: string; keywords: string };

type Term = { text: string; weight: number };

const hanPattern = /[\u3400-\u9fff\uf900-\ufaff]/;
const hanRunPattern = /[\u3400-\u9fff\uf900-\ufaff]+/g;
const latinWordPattern = /[a-z0-9]+/g;

const englishStopwords = new Set(
  'a an and are as at be can do does did for from how i in is it its me my of on or our please the to us we what when where which who why will with you your tell about there this that have has get'.split(
    ' ',
  ),
);

// Question words and particles carry no topic; removing them lets "退货政策是什么" find "退货政策".
const chineseFillers =
  /请问|你们|我们|我想|我要|想知道|是什么|什么|怎么|怎样|如何|多长时间|多久|可以|一下|吗|呢|吧|呀|的|了|是|有|能|么/g;

/** True when the text contains a Chinese (Han) character. */
export function containsChinese(text: string): boolean {
  return hanPattern.test(text);
}

// Naive English stemming so "returns" and "policies" meet "return" and "policy".
function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/**
 * Splits a query into search terms. English words (minus stopwords) as they are; each
 * Chinese run, once the question words are gone, as its bigrams plus (when long enough)
 * the run itself, since Chinese has no spaces to split on.
 */
function extractTerms(query: string): Term[] {
  const terms = new Map<string, number>();
  const add = (text: string, weight: number) => terms.set(text, Math.max(terms.get(text) ?? 0, weight));
  const lower = query.toLowerCase();
  for (const word of lower.match(latinWordPattern) ?? []) {
    if (word.length < 2 || englishStopwords.has(word)) continue;
    add(stem(word), 2);
  }
  for (const run of lower.match(hanRunPattern) ?? []) {
    for (const segment of run.split(chineseFillers)) {
      const characters = Array.from(segment);
      if (characters.length === 1) add(segment, 1);
      for (let index = 0; index + 1 < characters.length; index++)
        add(characters[index] + characters[index + 1], 1);
      if (characters.length >= 3) add(segment, 2);
    }
  }
  return [...terms].map(([text, weight]) => ({ text, weight }));
}

const quoteForFts = (text: string) => `"${text.replaceAll('"', '""')}"`;
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (character) => `\\${character}`);

// The sentence that holds the most query terms (plus the next one while the
// snippet is short), so a snippet never starts or ends in the middle of a word.
function makeSnippet(body: string, terms: Term[]): string {
  const sentences = body.split(/(?<=[.!?。！？])\s*/).filter((sentence) => sentence !== '');
  let first = 0;
  let bestScore = 0;
  sentences.forEach((sentence, index) => {
    const lower = sentence.toLowerCase();
    const score = terms.reduce((sum, term) => sum + (lower.includes(term.text) ? term.weight : 0), 0);
    if (score > bestScore) {
      bestScore = score;
      first = index;
    }
  });
  let snippet = sentences[first] ?? body;
  for (let next = first + 1; next < sentences.length && snippet.length < 80; next++) {
    snippet += (/[\u3400-\u9fff]/.test(snippet) ? '' : ' ') + sentences[next];
  }
  return snippet.length > 240 ? `${snippet.slice(0, 239)}…` : snippet;
}

/**
 * The ids of articles that contain any of `terms`. SQLite: terms of three or more characters
 * go through the FTS5 trigram index, and shorter ones (a two-character Chinese word such as
 * 运费, which no trigram can match) use LIKE on the same table. Postgres: ILIKE over the
 * columns, which the pg_trgm index serves. Both are substring matches, so both engines find
 * the same articles.
 */
async function findCandidates(db: Db, terms: Term[]): Promise<Set<string>> {
  const ids = new Set<string>();
  if (engineOf(db) === 'postgres') {
    const rows = await db
      .selectFrom('knowledge_articles')
      .select('id')
      .where((eb) =>
        eb.or(
          terms.map((term) => {
            const pattern = `%${escapeLike(term.text)}%`;
            return sql<boolean>`(title || ' ' || keywords || ' ' || body) ILIKE ${pattern}`;
          }),
        ),
      )
      .execute();
    for (const row of rows) ids.add(row.id);
    return ids;
  }
  const longTerms = terms.filter((term) => Array.from(term.text).length >= 3);
  if (longTerms.length > 0) {
    const match = longTerms.map((term) => quoteForFts(term.text)).join(' OR ');
    const { rows } = await sql<{
      article_id: string;
    }>`SELECT article_id FROM knowledge_fts WHERE knowledge_fts MATCH ${match}`.execute(db);
    for (const row of rows) ids.add(row.article_id);
  }
  for (const term of terms.filter((candidate) => Array.from(candidate.text).length < 3)) {
    const pattern = `%${escapeLike(term.text)}%`;
    const { rows } = await sql<{ article_id: string }>`SELECT article_id FROM knowledge_fts
      WHERE title LIKE ${pattern} ESCAPE '\\' OR keywords LIKE ${pattern} ESCAPE '\\' OR body LIKE ${pattern} ESCAPE '\\'`.execute(
      db,
    );
    for (const row of rows) ids.add(row.article_id);
  }
  return ids;
}

/**
 * Full-text search over the help-centre articles, in Chinese or English. Candidates are
 * ranked by where terms hit (title, keywords, body), with articles in the query's language
 * first, so an English question gets the English article.
 */
export async function searchArticles(db: Db, query: string, limit = 3): Promise<KnowledgeHit[]> {
  const terms = extractTerms(query);
  if (terms.length === 0) return [];
  const candidateIds = await findCandidates(db, terms);
  if (candidateIds.size === 0) return [];

  const articles: ArticleRow[] = await db
    .selectFrom('knowledge_articles')
    .select(['id', 'lang', 'title', 'body', 'keywords'])
    .where('id', 'in', [...candidateIds])
    .execute();
  const language = containsChinese(query) ? 'zh' : 'en';
  const scored = articles.map((article) => {
    const title = article.title.toLowerCase();
    const keywords = article.keywords.toLowerCase();
    const body = article.body.toLowerCase();
    let score = 0;
    for (const term of terms) {
      if (title.includes(term.text)) score += 3 * term.weight;
      if (keywords.includes(term.text)) score += 2 * term.weight;
      if (body.includes(term.text)) score += term.weight;
    }
    return { article, score, sameLanguage: article.lang === language ? 1 : 0 };
  });
  scored.sort(
    (left, right) =>
      right.sameLanguage - left.sameLanguage ||
      right.score - left.score ||
      left.article.id.localeCompare(right.article.id),
  );
  const count = Math.min(10, Math.max(1, Math.trunc(limit)));
  return scored.slice(0, count).map(({ article }) => ({
    id: article.id,
    title: article.title,
    snippet: makeSnippet(article.body, terms),
  }));
}
