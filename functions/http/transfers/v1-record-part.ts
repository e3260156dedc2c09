import { partsOfRecordBody } from '../../domain/transfer-api';
import { v1RecordPartSchema, v1TransferParams } from '../../domain/public-api';
import { keyRoute } from '../../services/api-keys';
import { recordParts, requireOwnedUpload } from '../../services/transfers';

/** POST /api/v1/transfers/{id}/parts (API key, send): records finished parts (number, ETag, size, CRC-32). */
export const handler = keyRoute(
  'send',
  { params: v1TransferParams, body: v1RecordPartSchema },
  async ({ params, body, claims }) => {
    await recordParts(await requireOwnedUpload(params.id, String(claims?.sub)), partsOfRecordBody(body));
    return { body: { recorded: true } };
  },
  { rateWindow: 'upload' },
);
