import { v1RecordPartSchema, v1TransferParams } from '../../domain/public-api';
import { keyRoute } from '../../services/api-keys';
import { recordPart, requireOwnedUpload } from '../../services/transfers';

/** POST /api/v1/transfers/{id}/parts (API key, send): records a finished part (number, ETag, size). */
export const handler = keyRoute(
  'send',
  { params: v1TransferParams, body: v1RecordPartSchema },
  async ({ params, body, claims }) => {
    await recordPart(await requireOwnedUpload(params.id, String(claims?.sub)), body);
    return { body: { recorded: true } };
  },
  { rateWindow: 'upload' },
);
