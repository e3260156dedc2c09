/**
 * Every client's HTTP handler options: the SDK waits for an answer forever by default, and its
 * request timeout only warns unless told to throw. 30 s per attempt (connect, send, the answer's
 * headers; a streamed body is read after it), then the SDK's retry policy decides.
 */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

export const REQUEST_HANDLER = { requestTimeout: DEFAULT_REQUEST_TIMEOUT_MS, throwOnRequestTimeout: true } as const;
