import type { FakeChatMessage } from './types.js';

/** The contact details the fake hands out: fictional, but shaped so PII detectors find them. */
export const FAKE_CONTACT = { email: 'jane.doe@example.com', phone: '+1-202-555-0143' } as const;

/** The system prompt the fake "leaks" when the request has none. */
export const DEFAULT_SYSTEM_PROMPT = 'You are a helpful assistant.';

const INJECTION_PATTERNS: readonly RegExp[] = [
  /\b(?:ignore|disregard|forget)\s+(?:all\s+|any\s+|the\s+|your\s+|of\s+)*(?:previous|prior|above|earlier)\s+(?:instructions|prompts?|rules)\b/i,
  /\b(?:reveal|show|print|repeat|output|tell\s+me|give\s+me|what\s+is|what's)\s+(?:me\s+)?(?:your|the)\s+(?:system\s+prompt|hidden\s+instructions|initial\s+instructions)\b/i,
];

const CONTACT_REQUEST =
  /\b(?:contact|e-?mail|phone|telephone|reach\s+(?:you|someone|somebody|support|a\s+human))\b/i;
const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}.-]+\.\p{L}{2,}/gu;
const PHONE_CANDIDATE = /(?:\+|\()?\d[\d\s().-]{7,}\d/g;
const QUESTION_START =
  /^\s*(?:what|why|how|when|where|which|who|whom|whose|is|are|was|were|can|could|would|should|do|does|did|will|may|explain|tell\s+me)\b/i;
const GREETING = /\b(?:hello|hi|hey|hiya|greetings|good\s+(?:morning|afternoon|evening))\b/i;

/** Whether a text tries a prompt injection such as "ignore previous instructions". */
export function isInjection(text: string): boolean {
  return INJECTION_PATTERNS.some((pattern) => pattern.test(text));
}

/** Whether a text asks for contact details. */
export function asksForContact(text: string): boolean {
  return CONTACT_REQUEST.test(text);
}

/** The e-mail addresses and phone numbers (10 to 15 digits) a text contains, in order. */
export function contactDetailsIn(text: string): string[] {
  const emails = text.match(EMAIL) ?? [];
  const phones = (text.match(PHONE_CANDIDATE) ?? [])
    .map((candidate) => candidate.trim())
    .filter((candidate) => {
      const digits = candidate.replace(/\D/g, '').length;
      return digits >= 10 && digits <= 15;
    });
  return [...emails, ...phones];
}

/** Whether a text is a question: a question mark, or a question word first. */
export function isQuestion(text: string): boolean {
  return text.includes('?') || QUESTION_START.test(text);
}

/** Whether a text greets. */
export function isGreeting(text: string): boolean {
  return GREETING.test(text);
}

/** Index of the last `user` message, -1 when there is none. */
export function lastUserIndex(messages: readonly FakeChatMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]?.role === 'user') return i;
  return -1;
}

/** The tool results that follow the last user message (all of them when there is no user message). */
export function toolResultsAfterLastUser(messages: readonly FakeChatMessage[]): FakeChatMessage[] {
  return messages.slice(lastUserIndex(messages) + 1).filter((message) => message.role === 'tool');
}

/** The system prompt: all `system` messages joined, or `undefined`. */
export function systemPrompt(messages: readonly FakeChatMessage[]): string | undefined {
  const parts = messages.filter((message) => message.role === 'system').map((message) => message.content);
  return parts.length === 0 ? undefined : parts.join('\n');
}
