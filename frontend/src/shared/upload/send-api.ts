/** The send flow's API calls (functions/domain/transfer-api.ts has the routes and shapes). */
import type {
  CompleteResponse,
  CompletingResponse,
  CreateTransferResponse,
  SenderTokenResponse,
  VerifySenderResponse,
} from '@domain/transfer-api';
import { SENDER_TOKEN_HEADER, UPLOAD_TOKEN_HEADER } from '@domain/transfer-headers';
import type { TransferDraftInput } from '@domain/validation';
import { apiFetch } from '@/lib/api';
import { retryAfterSecondsOf } from './http-api';
import { rememberedUploadSpeed } from './upload-speed';

/** Guest sender: mail a 5-digit code (on entering the verification step, and on Resend). */
export function requestSenderCode(email: string, lang: string, signal?: AbortSignal): Promise<VerifySenderResponse> {
  return apiFetch<VerifySenderResponse>('/verifyEmail', { body: { email, lang }, signal });
}

/** Guest sender: the code for a sender token; a wrong code answers 403. */
export function checkSenderCode(email: string, code: string, signal?: AbortSignal): Promise<SenderTokenResponse> {
  return apiFetch<SenderTokenResponse>('/checkVerifyEmail', { body: { email, code }, signal });
}

export type CreateBody = TransferDraftInput & { lang: string; uploadBytesPerSecond?: number };

/** How the sender proves who they are when creating a transfer. */
export type SenderAuth = { kind: 'guest'; senderToken: string } | { kind: 'account'; accessToken: string };

/**
 * Creates the transfer and its upload plan. Retried after a network error or a 5xx with one
 * Idempotency-Key (apiFetch): a create whose answer was lost answers the same
 * transfer again instead of making (and counting) a second one.
 */
export function createTransfer(
  body: CreateBody,
  auth: SenderAuth,
  signal?: AbortSignal,
): Promise<CreateTransferResponse> {
  // the last measured speed sizes the parts (larger on a fast link)
  const speed = rememberedUploadSpeed();
  if (speed !== undefined) body = { ...body, uploadBytesPerSecond: speed };
  return auth.kind === 'guest'
    ? apiFetch<CreateTransferResponse>('/transfers', {
        body,
        headers: { [SENDER_TOKEN_HEADER]: auth.senderToken },
        signal,
      })
    : apiFetch<CreateTransferResponse>('/me/transfers', { body, accessToken: auth.accessToken, signal });
}

/**
 * Finishes the transfer: the server completes the uploads and mails the recipients (keyed,
 * retried). `completing` (202) while large files are still put together: ask again after
 * `retryAfterSeconds` (the answer's Retry-After when it has one).
 */
export async function completeTransfer(
  id: string,
  uploadToken: string,
  signal?: AbortSignal,
): Promise<CompleteResponse | CompletingResponse> {
  let retryAfter: string | null = null;
  const answer = await apiFetch<CompleteResponse | CompletingResponse>(
    `/transfers/${encodeURIComponent(id)}/complete`,
    {
      body: {},
      headers: { [UPLOAD_TOKEN_HEADER]: uploadToken },
      signal,
      onAnswer: (_, headers) => (retryAfter = headers.get('retry-after')),
    },
  );
  const header = retryAfterSecondsOf(retryAfter);
  return answer.state === 'completing' && header !== undefined ? { ...answer, retryAfterSeconds: header } : answer;
}

export function cancelTransfer(id: string, uploadToken: string): Promise<{ cancelled: true }> {
  return apiFetch<{ cancelled: true }>(`/transfers/${encodeURIComponent(id)}/cancel`, {
    body: {},
    headers: { [UPLOAD_TOKEN_HEADER]: uploadToken },
  });
}
