import type { ToolUIPart } from 'ai';
import type { AuditOutcome } from '@/lib/db/audit';
import type { Ticket, Todo } from './api-types';

/**
 * Every UI string, in English and Chinese. A plain dictionary rather than an i18n
 * library: two languages and a few dozen strings do not need plural rules or ICU.
 */

/** Languages the UI speaks. */
export type Locale = 'en' | 'zh';

/** Every locale, in the order the language switch offers them. */
export const locales: readonly Locale[] = ['en', 'zh'];

/** localStorage key (and cookie name) that remembers the user's language choice. */
export const localeStorageKey = 'toolgate-locale';

/** localStorage key that remembers the user opted in to desktop notifications for waiting cards. */
export const notifyStorageKey = 'toolgate-notify';

/** localStorage key that remembers the user's theme choice. */
export const themeStorageKey = 'toolgate-theme';

/** Maps a BCP 47 tag such as `zh-CN` or `en-US` to a UI locale; anything not Chinese is English. */
export function localeFromLanguageTag(tag: string | null | undefined): Locale {
  return tag?.toLowerCase().startsWith('zh') ? 'zh' : 'en';
}

/** Type guard for a stored or user-supplied locale string. */
export function isLocale(value: unknown): value is Locale {
  return value === 'en' || value === 'zh';
}

// Annotated with the SDK's state union so a new tool state fails to compile until it has a label.
const englishToolStates: Record<ToolUIPart['state'], string> = {
  'input-streaming': 'Preparing',
  'input-available': 'Running',
  'approval-requested': 'Awaiting approval',
  'approval-responded': 'Answered',
  'output-available': 'Done',
  'output-error': 'Failed',
  'output-denied': 'Denied',
};

const en = {
  appName: 'Toolgate',
  tagline: 'An AI agent that acts only through hardened tools.',
  languageName: 'English',
  switchLanguage: 'Language',
  toggleTheme: 'Toggle dark mode',
  desktopNotifications: 'Desktop notifications for calls waiting for you',
  notificationTitle: 'Toolgate: approval needed',
  chats: 'Chats',
  newChat: 'New chat',
  noChats: 'No chats yet.',
  untitledChat: 'Untitled chat',
  deleteChat: (title: string) => `Delete chat “${title}”`,
  loadingChat: 'Loading chat…',
  worker: 'Worker',
  workerAuto: 'Auto',
  workerAutoHint: 'A router picks the worker for each message.',
  workerNames: {
    order: 'Order',
    refund: 'Refund',
    knowledge: 'Knowledge',
    assistant: 'Assistant',
  } as Record<string, string>,
  toolsOf: (worker: string) => `Tools of ${worker}`,
  noTools: 'no tools',
  mcpServer: (server: string) => `MCP server ${server}`,
  unavailable: 'unreachable right now',
  model: 'Model',
  messages: 'Messages',
  messageLabel: 'Message',
  messagePlaceholder: 'Ask something… (Enter to send, Shift+Enter for a new line)',
  send: 'Send',
  stop: 'Stop',
  you: 'You',
  agent: 'Agent',
  handledBy: 'Worker',
  emptyTitle: 'What can I do for you?',
  emptyHint: 'Try one of these:',
  examples: [
    'create a ticket: printer broken',
    'where is my order A1001',
    'what is your return policy',
    'add a todo: call the supplier',
  ],
  chatError: 'Something went wrong.',
  retry: 'Retry',
  toolStates: englishToolStates,
  toolCard: (toolName: string) => `Tool call ${toolName}`,
  arguments: 'Arguments',
  result: 'Result',
  // The one-line result of a read tool that declares none of its own (MCP tools).
  readResultFallback: 'Done: open for the result',
  error: 'Error',
  approvalTitle: 'Approval needed',
  approvalExplain: 'The agent wants to run this tool. Nothing happens until you decide.',
  allow: 'Allow',
  editInput: 'Edit the arguments',
  edit: 'Edit',
  allowEdited: 'Allow with these arguments',
  allowForChat: 'Allow for this chat',
  denyWithNote: 'Deny with a note…',
  denyNoteLabel: 'Why not? (optional, the agent reads it)',
  sendDenial: 'Deny',
  moreTime: '+60 s',
  // Starts with the visible text, so a person who says what they see (voice control) names the button.
  moreTimeLabel: (left: number) => `+60 s: give 60 more seconds (${left} left)`,
  fieldInvalid: (name: string, field: { maxLength?: number }) =>
    field.maxLength !== undefined
      ? `Check ${name}: it must be filled in correctly, at most ${field.maxLength} characters.`
      : `Check ${name}: it is not valid.`,
  inputInvalid: 'These arguments are not valid.',
  hiddenCharactersShown: 'With its hidden characters shown:',
  editedBadge: 'Edited',
  yourNote: 'Your note',
  approvalRules: 'Allowed in this chat',
  revokeRule: (tool: string) => `Stop allowing ${tool} in this chat`,
  revoke: 'Revoke',
  allowAll: (count: number) => `Allow all (${count})`,
  denyAll: (count: number) => `Deny all (${count})`,
  waitingAnnouncement: (count: number) =>
    count === 1
      ? 'A tool call is waiting for your approval.'
      : `${count} tool calls are waiting for your approval.`,
  deny: 'Deny',
  approved: 'Approved',
  denied: 'Denied',
  expired: 'Expired',
  cancelled: 'Cancelled',
  replayed: 'Replayed',
  replayedExplain:
    'Same request in this chat: the earlier result was returned and the tool did not run again.',
  autoDenyIn: (seconds: number) => `Auto-deny in ${seconds}s`,
  approvalFailed: 'The decision could not be delivered.',
  denialExplain: {
    denied: 'You declined, so nothing was done.',
    expired: 'Nobody answered in time, so nothing was done.',
    cancelled: 'Cancelled before anyone answered, so nothing was done.',
  },
  toolFailed: 'The tool failed; nothing more was done.',
  rateLimitedExplain: (seconds: number) =>
    `Too many tool calls: this one did not run. Try again in ${seconds}s.`,
  errorReference: (reference: string) => `Reference: ${reference}`,
  sidePanel: 'Workspace',
  close: 'Close',
  tickets: 'Tickets',
  todos: 'Todos',
  noTickets: 'No tickets yet.',
  noTodos: 'No todos yet.',
  ticketStatuses: { open: 'Open', closed: 'Closed', cancelled: 'Cancelled' } as Record<
    Ticket['status'],
    string
  >,
  todoStatuses: { open: 'To do', done: 'Done' } as Record<Todo['status'], string>,
  loadFailed: 'Could not load.',
  account: 'Account',
  guest: 'Guest',
  guestHint: 'You are chatting as a guest. Sign up to keep your chats on any device.',
  signedInAs: (name: string) => `Signed in as ${name}`,
  signIn: 'Sign in',
  signUp: 'Sign up',
  signOut: 'Sign out',
  name: 'Name',
  email: 'Email',
  password: 'Password',
  passwordHint: 'At least 10 characters, not a common password',
  accountFailed: 'That did not work. Check the email and password and try again.',
  accountRejected:
    'Check the fields: a name of at most 100 characters, a valid email, and a password of 10 to 128 characters that is not a common one.',
  verifyFirst: 'Confirm your email first: open the link we sent you.',
  signUpClosed: 'Sign-up by email is not available on this server.',
  tooManyAttempts: 'Too many attempts. Wait a few minutes and try again.',
  checkEmail: (email: string) => `Check your email: open the link we sent to ${email} to finish signing up.`,
  activity: 'Your activity',
  auditLog: 'Audit log',
  cancel: 'Cancel',
  /** The audit log and activity pages. */
  audit: {
    title: 'Tool call audit',
    intro:
      'One row per tool call of every user, newest first. Arguments are stored as a hash, beside a one-line summary of the call.',
    activityTitle: 'Your activity',
    activityIntro:
      'Every tool call made for you, newest first. Arguments are stored as a hash, beside a one-line summary of the call.',
    adminsOnly: 'The audit log of every user is for admins. Your own tool calls are under Your activity.',
    activityLink: 'Your activity',
    userId: 'User id',
    user: 'User',
    back: 'Back to chat',
    chatId: 'Chat id',
    tool: 'Tool',
    summary: 'Call',
    outcome: 'Outcome',
    all: 'All',
    filter: 'Filter',
    clear: 'Clear',
    time: 'Time',
    chat: 'Chat',
    worker: 'Worker',
    duration: 'Duration',
    argsHash: 'Arguments (sha256)',
    mcpServer: 'MCP server',
    empty: 'No tool calls match.',
    invalid: 'Ignored invalid filters',
  },
  /** Each audit outcome in words (exhaustive: a new outcome is a type error until it has them). */
  auditOutcomes: {
    executed: 'Executed',
    replayed: 'Replayed',
    denied: 'Denied',
    timeout: 'Expired',
    aborted: 'Stopped',
    closed: 'Chat deleted',
    superseded: 'Superseded',
    error: 'Failed',
    rate_limited: 'Rate limited',
    approved_by_rule: 'Allowed by rule',
    undone: 'Undone',
  } satisfies Record<AuditOutcome, string> as Record<AuditOutcome, string>,
};

/** The shape every locale's dictionary must have (English is the reference). */
export type Dictionary = typeof en;

const zh: Dictionary = {
  appName: 'Toolgate',
  tagline: '只通过加固工具行动的 AI 智能体。',
  languageName: '中文',
  switchLanguage: '语言',
  toggleTheme: '切换深色模式',
  desktopNotifications: '有调用等待批准时发桌面通知',
  notificationTitle: 'Toolgate：需要你的批准',
  chats: '会话',
  newChat: '新会话',
  noChats: '还没有会话。',
  untitledChat: '未命名会话',
  deleteChat: (title: string) => `删除会话「${title}」`,
  loadingChat: '正在加载会话…',
  worker: '工人',
  workerAuto: '自动',
  workerAutoHint: '由路由为每条消息挑选工人。',
  workerNames: {
    order: '订单',
    refund: '退款',
    knowledge: '知识库',
    assistant: '助理',
  },
  toolsOf: (worker: string) => `${worker}的工具`,
  noTools: '无工具',
  mcpServer: (server: string) => `MCP 服务器 ${server}`,
  unavailable: '暂时无法连接',
  model: '模型',
  messages: '消息记录',
  messageLabel: '消息',
  messagePlaceholder: '输入问题…（Enter 发送，Shift+Enter 换行）',
  send: '发送',
  stop: '停止',
  you: '你',
  agent: '智能体',
  handledBy: '工人',
  emptyTitle: '有什么可以帮你？',
  emptyHint: '试试这些：',
  examples: ['帮我创建一个工单：测试审批', '查询订单 A1001', '退货政策是什么', '加一个待办：给供应商回电话'],
  chatError: '出错了。',
  retry: '重试',
  toolStates: {
    'input-streaming': '准备参数',
    'input-available': '执行中',
    'approval-requested': '等待批准',
    'approval-responded': '已答复',
    'output-available': '已完成',
    'output-error': '失败',
    'output-denied': '已拒绝',
  },
  toolCard: (toolName: string) => `工具调用 ${toolName}`,
  arguments: '参数',
  result: '结果',
  readResultFallback: '已完成，展开查看结果',
  error: '错误',
  approvalTitle: '需要你的批准',
  approvalExplain: '智能体想执行这个工具。你做决定之前，什么都不会发生。',
  allow: '允许',
  editInput: '修改参数',
  edit: '修改',
  allowEdited: '按修改后的参数允许',
  allowForChat: '在本对话中始终允许',
  denyWithNote: '拒绝并说明…',
  denyNoteLabel: '原因（可选，助手会看到）',
  sendDenial: '拒绝',
  moreTime: '+60 秒',
  moreTimeLabel: (left: number) => `+60 秒：再给 60 秒（还可延长 ${left} 次）`,
  fieldInvalid: (name: string, field: { maxLength?: number }) =>
    field.maxLength !== undefined
      ? `请检查 ${name}：需正确填写，最多 ${field.maxLength} 个字符。`
      : `请检查 ${name}：内容无效。`,
  inputInvalid: '这些参数无效。',
  hiddenCharactersShown: '显示其中的隐藏字符：',
  editedBadge: '已修改',
  yourNote: '你的说明',
  approvalRules: '本对话中已始终允许',
  revokeRule: (tool: string) => `在本对话中不再自动允许 ${tool}`,
  revoke: '撤销',
  allowAll: (count: number) => `全部允许（${count}）`,
  denyAll: (count: number) => `全部拒绝（${count}）`,
  waitingAnnouncement: (count: number) =>
    count === 1 ? '有一个工具调用等待你的批准。' : `有 ${count} 个工具调用等待你的批准。`,
  deny: '拒绝',
  approved: '已允许',
  denied: '已拒绝',
  expired: '已过期',
  cancelled: '已取消',
  replayed: '幂等命中',
  replayedExplain: '本会话里同样的请求：返回的是上次的结果，工具没有再执行一次。',
  autoDenyIn: (seconds: number) => `${seconds} 秒后自动拒绝`,
  approvalFailed: '决定未能送达。',
  denialExplain: {
    denied: '你已拒绝，什么都没有执行。',
    expired: '无人及时答复，什么都没有执行。',
    cancelled: '在答复之前已取消，什么都没有执行。',
  },
  toolFailed: '工具执行失败，没有做其他事情。',
  rateLimitedExplain: (seconds: number) => `工具调用过于频繁，这次没有执行。请 ${seconds} 秒后再试。`,
  errorReference: (reference: string) => `参考编号：${reference}`,
  sidePanel: '工作区',
  close: '关闭',
  tickets: '工单',
  todos: '待办',
  noTickets: '还没有工单。',
  noTodos: '还没有待办。',
  ticketStatuses: { open: '待处理', closed: '已关闭', cancelled: '已取消' },
  todoStatuses: { open: '未完成', done: '已完成' },
  loadFailed: '加载失败。',
  account: '账户',
  guest: '访客',
  guestHint: '你正以访客身份聊天。注册后可在任何设备上保留你的会话。',
  signedInAs: (name: string) => `已登录：${name}`,
  signIn: '登录',
  signUp: '注册',
  signOut: '退出登录',
  name: '名字',
  email: '邮箱',
  password: '密码',
  passwordHint: '至少 10 个字符，且不是常见密码',
  accountFailed: '操作失败。请检查邮箱和密码后重试。',
  accountRejected: '请检查填写内容：名字最多 100 个字符，邮箱有效，密码 10 到 128 个字符且不是常见密码。',
  verifyFirst: '请先验证邮箱：打开我们发给你的链接。',
  signUpClosed: '此服务器不开放邮箱注册。',
  tooManyAttempts: '尝试次数过多。请等几分钟再试。',
  checkEmail: (email: string) => `请查收邮件：打开我们发到 ${email} 的链接以完成注册。`,
  activity: '我的工具调用',
  auditLog: '审计日志',
  cancel: '取消',
  audit: {
    title: '工具调用审计',
    intro: '所有用户的每次工具调用一行，最新的在前。参数以哈希保存，另附一行调用摘要。',
    activityTitle: '我的工具调用',
    activityIntro: '为你执行的每次工具调用，最新的在前。参数以哈希保存，另附一行调用摘要。',
    adminsOnly: '所有用户的审计日志仅对管理员开放。你自己的工具调用见“我的工具调用”。',
    activityLink: '我的工具调用',
    userId: '用户 ID',
    user: '用户',
    back: '返回聊天',
    chatId: '会话 ID',
    tool: '工具',
    summary: '调用',
    outcome: '结果',
    all: '全部',
    filter: '筛选',
    clear: '清除',
    time: '时间',
    chat: '会话',
    worker: '助手',
    duration: '耗时',
    argsHash: '参数 (sha256)',
    mcpServer: 'MCP 服务器',
    empty: '没有匹配的工具调用。',
    invalid: '已忽略无效的筛选条件',
  },
  auditOutcomes: {
    executed: '已执行',
    replayed: '幂等命中',
    denied: '已拒绝',
    timeout: '已过期',
    aborted: '已停止',
    closed: '会话已删除',
    superseded: '被新消息取代',
    error: '失败',
    rate_limited: '已限流',
    approved_by_rule: '按规则允许',
    undone: '已撤销',
  },
};

/** The dictionaries by locale. */
export const dictionaries: Record<Locale, Dictionary> = { en, zh };
