/**
 * `read` remembering its last few answers: one message is read by several stages (the clause
 * split, the title, the scope), each asking for the same words or sentences again.
 */
export function remembered<T>(read: (text: string) => T, size = 32): (text: string) => T {
  const answers = new Map<string, T>();
  return (text) => {
    const known = answers.get(text);
    if (known !== undefined) return known;
    const answer = read(text);
    if (answers.size >= size) answers.delete(answers.keys().next().value as string);
    answers.set(text, answer);
    return answer;
  };
}
