import { expect, type Locator, type Page } from '@playwright/test';

// Names in both languages: the tests drive the UI the way a user reads it, in whichever locale.
const names = {
  message: /^(消息|Message)$/,
  send: /^(发送|Send)$/,
  stop: /^(停止|Stop)$/,
  worker: /^(工人|Worker)$/,
  allow: /^(允许|Allow)$/,
  deny: /^(拒绝|Deny)$/,
  tickets: /^(工单|Tickets)$/,
  todos: /^(待办|Todos)$/,
  agent: /^(智能体|Agent)$/,
  you: /^(你|You)$/,
  chats: /^(会话|Chats)$/,
  newChat: /^(新会话|New chat)$/,
  workspace: /^(工作区|Workspace)$/,
  close: /^(关闭|Close)$/,
  // A tool part still in flight: its state badge carries a spinner.
  inFlight: /^(准备参数|执行中|Preparing|Running)$/,
};

/** The chat page as a user sees it: composer, messages, tool cards, the side panel and the chats list. */
export class ChatPage {
  constructor(readonly page: Page) {}

  /** Opens a page and waits until the composer is ready to type into. */
  async goto(path = '/') {
    await this.page.goto(path);
    await expect(this.input).toBeEditable();
  }

  get input(): Locator {
    return this.page.getByRole('textbox', { name: names.message });
  }

  get sendButton(): Locator {
    return this.page.getByRole('button', { name: names.send });
  }

  get stopButton(): Locator {
    return this.page.getByRole('button', { name: names.stop });
  }

  get workerPicker(): Locator {
    return this.page.getByRole('combobox', { name: names.worker });
  }

  get ticketsPanel(): Locator {
    return this.page.getByRole('region', { name: names.tickets });
  }

  get todosPanel(): Locator {
    return this.page.getByRole('region', { name: names.todos });
  }

  get chatsNav(): Locator {
    return this.page.getByRole('navigation', { name: names.chats });
  }

  get newChatButton(): Locator {
    return this.page.getByRole('button', { name: names.newChat });
  }

  /** The header button that opens the chats list on narrow screens. */
  get chatsButton(): Locator {
    return this.page.getByRole('button', { name: names.chats });
  }

  /** The header button that opens tickets and todos on narrow screens. */
  get workspaceButton(): Locator {
    return this.page.getByRole('button', { name: names.workspace });
  }

  /** The drawer the chats button opens. */
  get chatsDrawer(): Locator {
    return this.page.getByRole('dialog', { name: names.chats });
  }

  /** The drawer the workspace button opens. */
  get workspaceDrawer(): Locator {
    return this.page.getByRole('dialog', { name: names.workspace });
  }

  closeButton(drawer: Locator): Locator {
    return drawer.getByRole('button', { name: names.close });
  }

  /** Every agent turn, oldest first. */
  get agentMessages(): Locator {
    return this.page.getByRole('listitem', { name: names.agent });
  }

  /** Every user turn, oldest first. */
  get userMessages(): Locator {
    return this.page.getByRole('listitem', { name: names.you });
  }

  /** Types a message and sends it with Enter, as a user would. */
  async send(text: string) {
    await this.input.fill(text);
    await this.input.press('Enter');
  }

  /** The cards of one tool's calls, oldest first. */
  toolCards(toolName: string): Locator {
    return this.page.getByRole('group', { name: new RegExp(`^(工具调用|Tool call) ${toolName}$`) });
  }

  /** Opens the card's "More" (edit, a note, for this chat, similar calls, more time) unless it is open. */
  async openMore(card: Locator) {
    const more = card.getByTestId('more-actions');
    if ((await more.getAttribute('aria-expanded')) !== 'true') await more.click();
  }

  allowButton(card: Locator): Locator {
    return card.getByRole('button', { name: names.allow });
  }

  denyButton(card: Locator): Locator {
    return card.getByRole('button', { name: names.deny });
  }

  /** The card's countdown to auto-deny; it exists only while the card can be answered. */
  countdown(card: Locator): Locator {
    return card.getByRole('timer');
  }

  /**
   * The seconds the card's countdown shows now, read as people read it: "45 秒" / "45 s" in its
   * last minute, "3 分" / "3 min" (at least 180 s) and "1 小时 5 分" / "1 h 5 min" before.
   */
  async secondsLeft(card: Locator): Promise<number> {
    const text = (await this.countdown(card).textContent()) ?? '';
    const amount = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? 0);
    const hours = amount(/(\d+)\s*(?:小时|h\b)/);
    const minutes = amount(/(\d+)\s*(?:分|min\b)/);
    const seconds = amount(/(\d+)\s*(?:秒|s\b)/);
    if (!/\d/.test(text)) throw new Error(`no time in the countdown: ${text}`);
    return hours * 3600 + minutes * 60 + seconds;
  }

  /** The card's in-flight state badge (Preparing / Running, with a spinner). */
  inFlightBadge(card: Locator): Locator {
    return card.getByText(names.inFlight);
  }

  /** The ticket rows in the side panel that mention `text`. */
  tickets(text?: string | RegExp): Locator {
    const rows = this.ticketsPanel.getByRole('listitem');
    return text === undefined ? rows : rows.filter({ hasText: text });
  }

  /** Waits for the tickets panel to load, then counts the rows that mention `text`. */
  async loadedTickets(text: string | RegExp): Promise<number> {
    await expect(
      this.ticketsPanel.getByText(/^(还没有工单。|No tickets yet\.)$|TK-\d+/).first(),
    ).toBeVisible();
    return this.tickets(text).count();
  }

  /** Waits until the agent has finished its turn: Stop has turned back into Send. */
  async waitForTurnEnd() {
    await expect(this.stopButton).toHaveCount(0);
    await expect(this.sendButton).toBeVisible();
  }

  /** The first TK-… number shown in `locator`. */
  async ticketIdIn(locator: Locator): Promise<string> {
    await expect(locator).toContainText(/TK-\d+/);
    const text = (await locator.textContent()) ?? '';
    const match = /TK-\d+/.exec(text);
    if (!match) throw new Error(`no ticket id in: ${text}`);
    return match[0];
  }
}
