/** The language of a message, and of the reply to it. */
export type Language = 'zh' | 'en';
