// A Next.js App Router route handler (app/api/ask/route.js), deployed on Vercel. The response goes
// out as soon as POST returns; `after()` runs the flush once it has been sent, and the platform
// keeps the function alive until the flush settles, then freezes it. On Vercel without Next.js
// (or in any route handler), `waitUntil(processor.forceFlush())` from '@vercel/functions' does the
// same.

import { answerQuestion } from './app.mjs';
import { after } from './platform.mjs'; // in a Next.js app: import { after } from 'next/server';
import { processor } from './tracing.mjs';

/** @param {Request} request */
export async function POST(request) {
  const { question } = await request.json();
  const answer = await answerQuestion(question);
  after(() => processor.forceFlush());
  return Response.json({ answer });
}
