/** The refusals of POST /appsumo/redeem, in the redeem form's words (billing catalogue). */
export type RedeemProblem = 'invalid_code' | 'code_already_used' | 'sumo_codes_full' | null;

export function redeemProblem(err: unknown): RedeemProblem {
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  return code === 'invalid_code' || code === 'code_already_used' || code === 'sumo_codes_full' ? code : null;
}
