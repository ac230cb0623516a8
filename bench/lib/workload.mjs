// The work every variant does: one trace = an HTTP server span around a GenAI chat span, with a
// prompt of about 1.5 KB and a response of about 0.7 KB, as an app wrapping one LLM call makes it.
// The text differs per trace (its index is in it), so nothing can be cached across traces.
import { ROOT_CONTEXT, SpanKind, trace } from '@opentelemetry/api';

const PROMPT_BASE =
  'You are the support assistant of an online shop. Answer in two or three sentences, politely, and only ' +
  'from the policy below. Policy: orders ship within two business days; refunds are possible within 30 days ' +
  'of delivery for unused items in their original packaging; shipping costs are refunded only when the item ' +
  'arrived damaged or was not what was ordered; gift cards cannot be refunded; customers in the EU may ' +
  'withdraw from a purchase within 14 days without giving a reason; express shipping is available for an ' +
  'extra fee in most countries; an order can be changed until it ships, after that it must be returned. ' +
  'Never promise anything the policy does not say, and point the customer to a human agent when unsure. ';

/** About 1,500 characters of prompt for trace `i`. */
function promptText(i) {
  return `${PROMPT_BASE.repeat(3).slice(0, 1450)} Customer ${i} asks: can I return order ${i}?`;
}

const RESPONSE_BASE =
  'Yes, you can return it. Items can be returned within 30 days of delivery as long as they are unused and ' +
  'in their original packaging. Once we receive the parcel, the refund goes back to your original payment ' +
  'method within five business days. Shipping costs are refunded only if the item arrived damaged or was ' +
  'not what you ordered. Would you like me to start the return for you now? ';

/** About 700 characters of response for trace `i`. */
function responseText(i) {
  return `${RESPONSE_BASE.repeat(2).slice(0, 680)} (reference ${i})`;
}

/** The GenAI semconv text of a message list, as instrumentations put it on a span. */
function messages(role, text) {
  return JSON.stringify([{ role, parts: [{ type: 'text', content: text }] }]);
}

/**
 * Creates and ends trace `i`, synchronously; the chat span ends before its parent, as in real code.
 * @param {import('@opentelemetry/api').Tracer} tracer
 * @param {number} i
 */
export function endTrace(tracer, i) {
  const root = tracer.startSpan(
    'POST /chat',
    {
      kind: SpanKind.SERVER,
      attributes: {
        'http.request.method': 'POST',
        'url.path': '/chat',
        'url.scheme': 'http',
        'http.route': '/chat',
        'server.address': 'shop.example.com',
        'server.port': 443,
        'user_agent.original': 'Mozilla/5.0 (X11; Linux x86_64) bench',
        'client.address': '10.0.0.1',
      },
    },
    ROOT_CONTEXT,
  );
  const chat = tracer.startSpan(
    'chat gpt-4o-mini',
    {
      kind: SpanKind.CLIENT,
      attributes: {
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'openai',
        'gen_ai.request.model': 'gpt-4o-mini',
        'gen_ai.input.messages': messages('user', promptText(i)),
        'gen_ai.output.messages': messages('assistant', responseText(i)),
        'gen_ai.response.model': 'gpt-4o-mini-2024-07-18',
        'gen_ai.usage.input_tokens': 340,
        'gen_ai.usage.output_tokens': 150,
      },
    },
    trace.setSpan(ROOT_CONTEXT, root),
  );
  chat.end();
  root.setAttribute('http.response.status_code', 200);
  root.end();
}

/** Sizes of the texts, for the report. */
export const TEXT_SIZES = { prompt: promptText(0).length, response: responseText(0).length };
