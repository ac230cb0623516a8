import { tool } from '@langchain/core/tools';
import { z } from 'zod';

// A tiny timetable, so the tool's answers are the same on every run.
const FLIGHTS = {
  AC123: 'on time, departing 14:05 from gate B12',
  LH440: 'delayed by 35 minutes, now departing 16:50 from gate A3',
  BA287: 'cancelled; passengers are rebooked on BA289 tomorrow at 09:15',
};

/**
 * A LangChain tool that looks up a flight's status. The model passes whatever it has (a flight
 * number, or the user's whole question); the tool finds the flight number in it.
 *
 * @example
 * await flightStatusTool.invoke({ query: 'Is LH440 on time?' });
 */
export const flightStatusTool = tool(
  async ({ query }) => {
    const flightNumber = query
      .toUpperCase()
      .match(/\b[A-Z]{2}\s?\d{2,4}\b/)?.[0]
      ?.replace(/\s/g, '');
    if (flightNumber === undefined) return 'No flight number found: ask for one like LH440.';
    const status = FLIGHTS[flightNumber];
    return status === undefined
      ? `Flight ${flightNumber} is not in today's timetable.`
      : `Flight ${flightNumber} is ${status}.`;
  },
  {
    name: 'flight_status',
    description: 'Looks up the current status of a flight by its flight number, e.g. LH440.',
    schema: z.object({ query: z.string().describe('The flight number, or a question that contains it') }),
  },
);
