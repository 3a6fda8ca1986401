import { findErrorReference } from '@toolgate/engine/client';
import { type ToolName, toolFactsOf, writeToolNames } from '@/lib/tools/tool-catalog';
import { describeCapabilities, toolCapabilities } from './capabilities';
import { questionForField } from './follow-up';
import type { Language } from './language';
import { type ToolRequest, type UnsupportedRequest, understoodLength } from './nlu/understand';
import { makerText, type OtherMaker, otherMakerOf } from './offline-decided-by';
import { offlineTools, quotedArgument, toolOfIntent } from './offline-tools';

/** How one tool call ended, as the offline model reads it back from the prompt. */
const isZh = (language: Language) => language === 'zh';

export type ToolOutcome =
  | { kind: 'success'; toolName: string; value: unknown; edited?: boolean }
  | {
      kind: 'denied';
      toolName: string;
      reason?: string;
      note?: string;
      retryAfterMs?: number;
      /** Someone other than the user said no: named, never "you". */
      by?: OtherMaker;
    }
  | { kind: 'rateLimited'; toolName: string; retryAfterMs?: number }
  | { kind: 'error'; toolName: string; message: string; validation: boolean };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

/** The greeting: who answers and what its tools can do. */
export function greetingReply(toolNames: readonly string[], language: Language): string {
  const intro =
    language === 'zh' ? '你好！我是 Toolgate 的离线助手。' : 'Hi! I’m Toolgate’s offline assistant.';
  return `${intro}${language === 'zh' ? '' : ' '}${describeCapabilities(toolNames, language)}`;
}

/** The answer when the request needs a tool this worker does not have. */
export function outOfTableReply(wanted: ToolName, toolNames: readonly string[], language: Language): string {
  const action = toolCapabilities[wanted].action[language];
  const refusal = language === 'zh' ? `这里不能${action}。` : `I can’t ${action} here.`;
  return `${refusal}${language === 'zh' ? '' : ' '}${describeCapabilities(toolNames, language)}`;
}

/** Said first when the latest message was longer than the part the offline model reads. */
export function truncationNote(language: Language): string {
  const characters = understoodLength.toLocaleString('en-US');
  return language === 'zh'
    ? `我只读了你消息的前 ${characters} 个字符。`
    : `I read only the first ${characters} characters of your message.`;
}

/** What the tools of the other workers do, for a reply that should not leave them out. */
function otherCapabilities(toolNames: readonly string[], language: Language): string {
  const others = (Object.keys(toolCapabilities) as ToolName[]).filter((name) => !toolNames.includes(name));
  if (others.length === 0) return '';
  const actions = new Intl.ListFormat(language === 'zh' ? 'zh' : 'en', { type: 'conjunction' }).format(
    others.map((name) => toolCapabilities[name].action[language]),
  );
  return language === 'zh'
    ? `\n\n其他助手还可以${actions}：请另发一条消息（选择“自动”时会交给对应的助手）。`
    : `\n\nOther assistants here can ${actions}: ask in a new message (with Auto selected, it goes to the right one).`;
}

/** The answer to a message the offline model does not understand: what this worker can do, and what the others can. */
export function unknownReply(toolNames: readonly string[], language: Language): string {
  const intro = language === 'zh' ? '抱歉，我没有理解你的意思。' : 'Sorry, I didn’t understand that.';
  return `${intro}${language === 'zh' ? '' : ' '}${describeCapabilities(toolNames, language)}${otherCapabilities(toolNames, language)}`;
}

/** The question asked instead of a write the model is not sure was meant: "yes" makes it, or the words that make it sure. */
export function unsureWriteReply(toolName: ToolName, language: Language): string {
  const { action, example } = toolCapabilities[toolName];
  return language === 'zh'
    ? `你是想让我${action.zh}吗？回复「是」我就按你刚才的话办理，也可以这样说：「${example.zh}」。`
    : `Would you like me to ${action.en}? Say “yes” and I will, from your last message, or say it like this: “${example.en}”.`;
}

/**
 * The answer to a message that asks for no call after all: something no tool here does (with
 * what the tools can do instead), a write already done, or one the person said not to do.
 */
export function declinedReply(
  declined: 'outOfScope' | 'alreadyDone' | 'setAside' | 'unsupported',
  toolNames: readonly string[],
  language: Language,
): string {
  const zh = language === 'zh';
  switch (declined) {
    case 'outOfScope':
      return zh
        ? `抱歉，这个我在这里做不了。${describeCapabilities(toolNames, language)}`
        : `Sorry, I can’t do that here. ${describeCapabilities(toolNames, language)}`;
    case 'alreadyDone':
      return zh
        ? '好的，既然已经办过了，我就不再重复创建或退款，什么都没有改动。'
        : 'Understood: since that was already done, I haven’t done it again, and nothing was changed.';
    case 'unsupported':
      return unsupportedReply({ action: 'change', object: 'ticket' }, toolNames, language);
    case 'setAside':
      return zh
        ? '好的，这次不办理，什么都没有改动。需要的时候再告诉我。'
        : 'OK, I won’t do that: nothing was changed. Tell me whenever you need something.';
  }
}

/**
 * The answer to "I want a human": no person can be reached from here, but a ticket (`ticketTool`)
 * reaches one; it ends with the offer of a ticket, so "yes" opens it.
 */
export function wantsPersonReply(ticketTool: ToolName, language: Language): string {
  return language === 'zh'
    ? `我这里没法直接转接人工客服，但可以帮你建一个客服工单，由工作人员跟进处理。${unsureWriteReply(ticketTool, language)}`
    : `I can’t put you through to a person from here, but a support ticket reaches the team, and someone will follow up. ${unsureWriteReply(ticketTool, language)}`;
}

/** The title of the ticket opened when someone who asked for a person says "yes" to the offer. */
export function wantsPersonTitle(language: Language): string {
  return language === 'zh' ? '客户希望人工客服联系' : 'Customer asked to talk to a person';
}

const unsupportedWords = {
  cancel: { en: 'cancel', zh: '取消' },
  change: { en: 'change', zh: '修改' },
  ticket: { en: 'a ticket', zh: '工单' },
  todo: { en: 'a to-do', zh: '待办' },
  order: { en: 'an order', zh: '订单' },
} as const;

/** The answer to a request no tool does ("cancel my ticket TK-000123"): it says so, and what it can do instead. */
export function unsupportedReply(
  { action, object, id }: UnsupportedRequest,
  toolNames: readonly string[],
  language: Language,
): string {
  const verb = unsupportedWords[action][language];
  const noun = unsupportedWords[object][language];
  const named = id === undefined ? '' : language === 'zh' ? `（${id}）` : ` (${id})`;
  return language === 'zh'
    ? `抱歉，这里没有${verb}${noun}的工具，所以没法帮你${verb}${named}，什么都没有改动。${describeCapabilities(toolNames, language)}`
    : `Sorry, there is no tool here to ${verb} ${noun}${named}, so I can’t do that, and nothing was changed. ${describeCapabilities(toolNames, language)}`;
}

/** The tool an assistant message asks about as an unsure write ("Would you like me to open a support ticket? …"), if it is that question. */
export function unsureWriteAskedIn(assistantText: string): ToolName | undefined {
  const text = assistantText.trim();
  return offlineTools.find((tool) =>
    (['zh', 'en'] as const).some((language) => text.endsWith(unsureWriteReply(tool.name, language))),
  )?.name;
}

/** The answer to thanks or a goodbye. */
export function thanksReply(language: Language): string {
  return language === 'zh'
    ? '不客气！还有需要随时告诉我。'
    : 'You’re welcome! Tell me whenever you need anything else.';
}

/** The question for what a rejected input lacks: the field the validation error names, else the tool's argument. */
function missingInputReply(toolName: string, message: string, language: Language): string | undefined {
  return questionForField(toolName, message, language);
}

/** The answer to `/tool <name>` for a tool this worker does not hold. */
export function unknownToolReply(toolName: string, toolNames: readonly string[], language: Language): string {
  const refusal =
    language === 'zh' ? `这里没有名为 ${toolName} 的工具。` : `There is no tool named ${toolName} here.`;
  return `${refusal}${language === 'zh' ? '' : ' '}${describeCapabilities(toolNames, language)}`;
}

// The example of the usage reply: the first tool whose facts give one (`offline.commandExample`).
const commandExample = offlineTools.flatMap((tool) =>
  tool.offline.commandExample === undefined
    ? []
    : [`/tool ${tool.name} ${JSON.stringify(tool.offline.commandExample)}`],
)[0];

/** The answer to a `/tool` message whose input is not JSON. */
export function toolCommandUsageReply(language: Language): string {
  if (commandExample === undefined)
    return language === 'zh'
      ? '格式是 `/tool <工具名> <JSON 输入>`。'
      : 'The form is `/tool <name> <json input>`.';
  return language === 'zh'
    ? `格式是 \`/tool <工具名> <JSON 输入>\`，例如 \`${commandExample}\`。`
    : `The form is \`/tool <name> <json input>\`, e.g. \`${commandExample}\`.`;
}

/** The answer to a `/tool` message whose input nests deeper than `limit` levels. */
export function toolCommandTooDeepReply(limit: number, language: Language): string {
  return language === 'zh'
    ? `这条命令的 JSON 输入嵌套超过 ${limit} 层，所以没有执行。请给一个更浅的输入。`
    : `The command's JSON input nests deeper than ${limit} levels, so it was not run. Please give a flatter input.`;
}

/** A request in the user's words, for a reply that names it: its argument, as its tool quotes it. */
function requestSummary(request: ToolRequest, language: Language): string {
  const argument = quotedArgument(request);
  return toolOfIntent(request.intent)?.offline.quote?.(argument, language) ?? argument;
}

/**
 * The note for a request that belongs to another worker's tools: it is named, not dropped,
 * so the user knows to ask again (the router sends that message to the worker that has the tool).
 */
export function otherWorkerReply(toolName: ToolName, request: ToolRequest, language: Language): string {
  const action = toolCapabilities[toolName].action[language];
  const summary = requestSummary(request, language);
  if (language === 'zh') {
    return `这里不能${action}${summary === '' ? '' : `（「${summary}」）`}，请单独再发一条消息问我。`;
  }
  return `I can’t ${action} here${summary === '' ? '' : ` (“${summary}”)`}: please ask me that in a separate message.`;
}

/**
 * The answer when a call did not succeed: declined, expired, rate limited or failed. Never suggests a retry loop.
 * `subject` names the call (its title, order number or question) when other calls of the same step
 * succeeded, so the reply says which request was declined instead of "nothing was created".
 */
export function failureReply(
  outcome: Exclude<ToolOutcome, { kind: 'success' }>,
  language: Language,
  { subject }: { subject?: string } = {},
): string {
  const zh = language === 'zh';
  switch (outcome.kind) {
    case 'denied': {
      if (subject !== undefined) return partialDenialReply(outcome, subject, language);
      const nothingDone =
        toolFactsOf(outcome.toolName)?.offline?.nothingDone?.[language] ??
        (writeToolNames.has(outcome.toolName)
          ? zh
            ? '没有创建任何内容'
            : 'nothing was created'
          : zh
            ? '这个操作没有执行'
            : 'that action was not run');
      if (outcome.reason === 'timeout') {
        return zh
          ? `审批请求已超时，没有人确认，所以${nothingDone}。如果仍然需要，请重新发起请求。`
          : `The approval request expired before anyone answered, so ${nothingDone}. Ask again if you still need it.`;
      }
      if (outcome.reason === 'sign_in_required') {
        // Nobody declined: a supervisor is asked only by a known (signed-in, verified) requester.
        return zh
          ? `这个请求需要主管审批，只有登录并验证了邮箱的用户才能向主管发起审批，所以${nothingDone}。请登录后再向主管申请。`
          : `This request needs a supervisor’s approval, and only a signed-in user with a verified email can ask for it, so ${nothingDone}. Please sign in to ask a supervisor.`;
      }
      if (outcome.reason === 'quota') {
        // Nobody declined: the policy allows only so many of these calls in a while.
        const minutes = Math.max(1, Math.ceil((outcome.retryAfterMs ?? 60_000) / 60_000));
        return zh
          ? `这类请求已达到审批规则的次数上限，所以${nothingDone}。请约 ${minutes} 分钟后再试。`
          : `This kind of request has reached the approval policy’s limit for now, so ${nothingDone}. Please try again in about ${minutes} minute${minutes === 1 ? '' : 's'}.`;
      }
      if (outcome.reason === 'policy_changed') {
        // Nobody declined: the policy was changed while the call waited, and now refuses it.
        return zh
          ? `这个请求等待审批期间审批规则有了变更，新的规则不允许它，所以${nothingDone}。如有需要，请联系客服人工处理。`
          : `The approval policy changed while this request waited, and the new policy does not allow it, so ${nothingDone}. Please contact support if you need it handled.`;
      }
      if (outcome.reason === 'no_approver') {
        // Nobody declined: nobody could have approved it, so nobody was asked.
        return zh
          ? `这个请求需要的审批人目前没有人能担任，所以没有发出审批请求，${nothingDone}。已通知管理员；请稍后再试或联系客服。`
          : `Nobody can approve this request right now (no one holds the role it needs), so no one was asked and ${nothingDone}. The operators have been told; please try again later or contact support.`;
      }
      if (outcome.reason === 'policy') {
        // Nobody declined: the approval policy does not allow this call at all.
        return zh
          ? `按照审批规则，这个请求不能办理，所以${nothingDone}。如有需要，请联系客服人工处理。`
          : `The approval policy does not allow this request, so ${nothingDone}. Please contact support if you need it handled.`;
      }
      if (outcome.by !== undefined) {
        // Someone else said no: name them, and give their words as theirs.
        const who = makerText(outcome.by, language);
        const said = outcome.note
          ? zh
            ? `说明：“${outcome.note}”。`
            : ` Their note: “${outcome.note}”.`
          : '';
        return zh
          ? `${who}拒绝了这个请求，所以${nothingDone}。${said}`
          : `${who} declined this request, so ${nothingDone}.${said}`;
      }
      if (outcome.note !== undefined && outcome.note !== '') {
        // The person said why: repeat it, so they see it was heard, and leave the next step to them.
        return zh
          ? `好的，已取消：${nothingDone}。你的说明：“${outcome.note}”。如果需要按这个说明重新办理，请告诉我。`
          : `Understood: ${nothingDone}. You said: “${outcome.note}”. Tell me if you would like me to try again that way.`;
      }
      return zh
        ? `好的，已取消：${nothingDone}，我不会再重试。`
        : `Understood: ${nothingDone}, and I won’t try again.`;
    }
    case 'rateLimited': {
      const seconds = Math.max(1, Math.ceil((outcome.retryAfterMs ?? 1000) / 1000));
      return zh
        ? `请求太频繁了，请 ${seconds} 秒后再试。`
        : `Too many requests right now. Please try again in ${seconds} second${seconds === 1 ? '' : 's'}.`;
    }
    case 'error': {
      const missing = outcome.validation
        ? missingInputReply(outcome.toolName, outcome.message, language)
        : undefined;
      if (missing !== undefined) return missing;
      // A failure the server logged: its reference is all the user needs (and all there is to say).
      const reference = findErrorReference(outcome.message);
      if (reference !== undefined) {
        return zh
          ? `抱歉，${outcome.toolName} 执行失败（参考编号 ${reference}）。请稍后再试。`
          : `Sorry, ${outcome.toolName} failed (reference ${reference}). Please try again later.`;
      }
      const detail = outcome.message.replace(/^(?:AI_)?\w*Error:\s*/, '').slice(0, 200);
      return zh
        ? `抱歉，${outcome.toolName} 执行失败：${detail}。请稍后再试。`
        : `Sorry, ${outcome.toolName} failed: ${detail}. Please try again later.`;
    }
  }
}

/** A denial beside calls that went through: it names the declined request, the rest is said by their replies. */
function partialDenialReply(
  outcome: Extract<ToolOutcome, { kind: 'denied' }>,
  subject: string,
  language: Language,
): string {
  const zh = language === 'zh';
  const notDone = writeToolNames.has(outcome.toolName)
    ? zh
      ? '没有为它创建任何内容'
      : 'nothing was created for it'
    : zh
      ? '它没有执行'
      : 'it was not run';
  if (outcome.reason === 'sign_in_required') {
    return zh
      ? `「${subject}」需要主管审批，${notDone}。请登录并验证邮箱后再向主管申请。`
      : `“${subject}” needs a supervisor’s approval, so ${notDone}. Please sign in with a verified email to ask a supervisor.`;
  }
  if (outcome.reason === 'policy_changed') {
    return zh
      ? `「${subject}」等待审批期间审批规则有了变更，新的规则不允许它，${notDone}。`
      : `The approval policy changed while “${subject}” waited and no longer allows it, so ${notDone}.`;
  }
  if (outcome.reason === 'policy') {
    return zh
      ? `按照审批规则，「${subject}」不能办理，${notDone}。`
      : `The approval policy does not allow “${subject}”, so ${notDone}.`;
  }
  if (outcome.reason === 'timeout') {
    return zh
      ? `「${subject}」的审批请求已超时，${notDone}。如果仍然需要，请重新发起请求。`
      : `The approval request for “${subject}” expired before anyone answered, so ${notDone}. Ask again if you still need it.`;
  }
  const noted = outcome.note !== undefined && outcome.note !== '';
  const by = outcome.by === undefined ? undefined : makerText(outcome.by, language);
  const said = !noted
    ? ''
    : by !== undefined
      ? zh
        ? `${by}的说明：“${outcome.note}”。`
        : ` ${by} said: “${outcome.note}”.`
      : zh
        ? `你的说明：“${outcome.note}”。`
        : ` You said: “${outcome.note}”.`;
  return zh
    ? `「${subject}」已被拒绝：${notDone}，我不会再重试。${said}`
    : `“${subject}” was declined: ${notDone}, and I won’t try again.${said}`;
}

/** One paragraph answering from a successful tool result. */
export function successReply(
  toolName: string,
  value: unknown,
  language: Language,
  { edited = false }: { edited?: boolean } = {},
): string {
  const reply = plainSuccessReply(toolName, value, language);
  const decidedBy = otherMakerOf(value, 'decidedBy');
  const editedBy = otherMakerOf(value, 'editedBy');
  if (editedBy !== undefined || decidedBy !== undefined) {
    // Someone else allowed (and maybe changed) it: say who, never "you".
    const approver = makerText(editedBy ?? (decidedBy as OtherMaker), language);
    if (editedBy !== undefined)
      return isZh(language)
        ? `${reply}（${approver}在批准前修改了内容。）`
        : `${reply} (${approver} changed the request before approving it.)`;
    return isZh(language) ? `${reply}（由${approver}批准。）` : `${reply} (Approved by ${approver}.)`;
  }
  if (!edited) return reply;
  // The person changed the call before allowing it: say so, the result shows what was done.
  return language === 'zh'
    ? `${reply}（你在批准前修改了内容。）`
    : `${reply} (You edited the request before approving it.)`;
}

/** The tool's own answer (declared in its facts, `offline.reply`), or the output as JSON for any other tool. */
function plainSuccessReply(toolName: string, value: unknown, language: Language): string {
  const reply = toolFactsOf(toolName)?.offline?.reply;
  if (reply !== undefined) return reply(isRecord(value) ? value : {}, language);
  const json = JSON.stringify(value) ?? '';
  const shown = json.length > 600 ? `${json.slice(0, 600)}…` : json;
  return `${language === 'zh' ? `${toolName} 已完成：` : `${toolName} returned:`}\n\n\`\`\`json\n${shown}\n\`\`\``;
}
