/**
 * The score of an amount against a budget: 1 within it, else budget / amount (so twice the
 * budget scores 0.5).
 */
export function budgetScore(amount: number, budget: number): number {
  return amount <= budget ? 1 : budget / amount;
}
