import type { Language } from './language';

/*
 * Who decided a call, as the offline model reads it from a tool result (`decidedBy` /
 * `editedBy`: `{ name, role }`) and says it: "Wang (supervisor)" / "主管 Wang". A decision of
 * the user's own (`role: requester`) is theirs: "you".
 */

/** A person other than the user who decided or edited a call. */
export type OtherMaker = { name: string; role: string };

const roleNames: Record<Language, Record<string, string>> = {
  en: { supervisor: 'supervisor', admin: 'admin', manager: 'manager' },
  zh: { supervisor: '主管', admin: '管理员', manager: '经理' },
};

/** The maker in `value[field]` when it is someone other than the user, else undefined. */
export function otherMakerOf(value: unknown, field: 'decidedBy' | 'editedBy'): OtherMaker | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const maker = (value as Record<string, unknown>)[field];
  if (typeof maker !== 'object' || maker === null) return undefined;
  const { name, role } = maker as { name?: unknown; role?: unknown };
  if (typeof name !== 'string' || typeof role !== 'string' || role === 'requester') return undefined;
  return { name, role };
}

/** "Wang (supervisor)" / "主管 Wang". */
export function makerText(maker: OtherMaker, language: Language): string {
  const role = roleNames[language][maker.role] ?? maker.role;
  if (maker.name === '') return language === 'zh' ? role : `a ${role}`;
  return language === 'zh' ? `${role} ${maker.name}` : `${maker.name} (${role})`;
}

/**
 * The maker named in a denial's message ("Wang (supervisor), not the user, declined …"): a later
 * step reads the denial from the saved chat, where only the message is kept.
 */
export function otherMakerInMessage(message: unknown): OtherMaker | undefined {
  if (typeof message !== 'string') return undefined;
  const match = /^(?:[a-z_]+: )?(.*) \(([^()]+)\), not the user, declined\b/s.exec(message);
  if (match === null || match[2] === 'requester') return undefined;
  return { name: match[1] ?? '', role: match[2] ?? '' };
}
