/**
 * The upload engine's UploadApi over the local API's real routes (sign, record a part, complete
 * a file), as frontend/src/shared/upload/http-api.ts calls them from the app, for the benches
 * that drive the engine under Node.
 */
import type {
  CompleteFileRequest,
  CreateTransferResponse,
  FileCompleteResponse,
  RecordPartRequest,
  RecordPartsRequest,
  SignManyRequest,
  SignManyResponse,
  SignRequest,
  SignResponse,
} from '../../functions/domain/transfer-api';
import { UPLOAD_TOKEN_HEADER } from '../../functions/domain/transfer-api';
import type { FileCompletion, UploadApi, UploadApiCallInit } from '../../frontend/src/shared/upload/engine';
import type { LocalApp } from '../local/app';

/** The engine's UploadApi over the local API's routes, as frontend/src/shared/upload/http-api.ts calls them. */
export function routeApi(
  app: Pick<LocalApp, 'apiOrigin'>,
  t: Pick<CreateTransferResponse, 'id' | 'uploadToken'>,
  onFirstComplete: () => void = () => {},
): UploadApi {
  const base = `${app.apiOrigin}/api/transfers/${t.id}`;
  const call = async <T>(url: string, body: unknown, init?: UploadApiCallInit) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [UPLOAD_TOKEN_HEADER]: t.uploadToken },
      body: JSON.stringify(body),
      ...(init?.signal ? { signal: init.signal } : {}),
    });
    const text = await res.text();
    if (!res.ok) throw Object.assign(new Error(`${url}: ${res.status} ${text}`), { status: res.status });
    return { status: res.status, json: (text ? JSON.parse(text) : undefined) as T };
  };
  let completing = false;
  return {
    sign: async (req: SignRequest, init) => (await call<SignResponse>(`${base}/sign`, req, init)).json,
    signMany: async (req: SignManyRequest, init) => (await call<SignManyResponse>(`${base}/sign`, req, init)).json,
    async recordPart(req: RecordPartRequest, init) {
      await call(`${base}/parts`, req, init);
    },
    async recordParts(req: RecordPartsRequest, init) {
      await call(`${base}/parts`, req, init);
    },
    async completeFile(
      fileId: string,
      init?: UploadApiCallInit,
      req: CompleteFileRequest = {},
    ): Promise<FileCompletion> {
      if (!completing) {
        completing = true;
        onFirstComplete();
      }
      const res = await call<FileCompleteResponse>(`${base}/files/${fileId}/complete`, req, init);
      return res.json.state === 'completing'
        ? {
            state: 'completing',
            ...(res.json.retryAfterSeconds ? { retryAfterSeconds: res.json.retryAfterSeconds } : {}),
          }
        : { state: 'complete' };
    },
  };
}
