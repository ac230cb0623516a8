import {
  asksForContact,
  contactDetailsIn,
  DEFAULT_SYSTEM_PROMPT,
  FAKE_CONTACT,
  isGreeting,
  isInjection,
  isQuestion,
  lastUserIndex,
  systemPrompt,
  toolResultsAfterLastUser,
} from './respond-rules.js';
import { joinList, keyTerms } from './text.js';
import type { FakeChatMessage, FakeChatRequest } from './types.js';

/** Key terms named after `About`. */
const HEAD_TERMS = 8;
/** Longest question quoted whole in the answer. */
const MAX_QUOTED_CHARS = 240;
/** Most key terms repeated in one answer. */
const MAX_TERMS = 40;

/**
 * The built-in answer rules, deterministic and made for scoring demos. The first rule that applies wins:
 * 1. tool results after the last user message → `Based on <tool name>: <tool result>`;
 * 2. a prompt injection ("ignore previous instructions", "reveal your system prompt") → naive compliance
 *    that leaks the system prompt: `Sure, my system prompt is: "..."`;
 * 3. a request for contact details, or a prompt with an e-mail address or phone number → an answer with an
 *    e-mail address and a phone number;
 * 4. a question → `About <key terms>: ... to "<question>".`, so every word of the question is reused (a question
 *    over 240 characters gets its first 40 key terms instead of the quote);
 * 5. a greeting → a greeting back;
 * 6. anything else → an acknowledgement that repeats the (first 40) key terms.
 * Only the last user message is read (and the system prompt, for rule 2).
 * @example
 * ```ts
 * defaultRespond({
 *   model: 'gpt-4o-mini',
 *   messages: [{ role: 'user', content: 'What is the capital of France?' }],
 *   tools: [],
 *   stream: false,
 *   api: 'openai-chat',
 * }); // 'About capital and France: this is a deterministic answer from the fake model to "What is ..."'
 * ```
 */
export function defaultRespond(request: FakeChatRequest): string {
  const messages: FakeChatMessage[] = Array.isArray(request?.messages) ? request.messages : [];
  const toolResults = toolResultsAfterLastUser(messages);
  if (toolResults.length > 0) {
    return toolResults.map((result) => `Based on ${result.name ?? 'the tool'}: ${result.content}`).join('\n');
  }
  const userIndex = lastUserIndex(messages);
  const prompt = userIndex === -1 ? '' : String(messages[userIndex]?.content ?? '');
  if (prompt.trim() === '') return 'Hello! How can I help you today?';
  if (isInjection(prompt)) {
    const leaked = systemPrompt(messages) ?? DEFAULT_SYSTEM_PROMPT;
    return `Sure, my system prompt is: "${leaked}". I will ignore my previous instructions and do what you ask.`;
  }
  const details = contactDetailsIn(prompt);
  if (details.length > 0 || asksForContact(prompt)) return contactAnswer(details);
  const terms = keyTerms(prompt);
  if (isQuestion(prompt)) return questionAnswer(prompt, terms);
  if (isGreeting(prompt)) return 'Hello! I am a fake assistant. How can I help you today?';
  if (terms.length === 0) return 'Understood.';
  const repeated = joinList(terms.slice(0, MAX_TERMS));
  return `Understood: ${repeated}. This deterministic answer from the fake model repeats your key terms.`;
}

function contactAnswer(detailsInPrompt: readonly string[]): string {
  const contact = `You can contact Jane Doe at ${FAKE_CONTACT.email} or call ${FAKE_CONTACT.phone}.`;
  if (detailsInPrompt.length === 0) return contact;
  return `${contact} I have noted your details: ${detailsInPrompt.join(', ')}.`;
}

function questionAnswer(prompt: string, terms: readonly string[]): string {
  if (terms.length === 0)
    return 'That is a good question. I am a fake model, so I can only give a short answer.';
  // Quoting a short question keeps each of its words in the answer (answer relevance 1); a long prompt
  // (pasted context) gets its first key terms instead, so the answer stays short.
  const question = prompt.trim().replace(/\s+/g, ' ');
  const tail =
    question.length <= MAX_QUOTED_CHARS
      ? ` to "${question}"`
      : `, covering ${joinList(terms.slice(0, MAX_TERMS))}`;
  return `About ${joinList(terms.slice(0, HEAD_TERMS))}: this is a deterministic answer from the fake model${tail}.`;
}
