/** Where every deployment serves its document (functions/routes.ts, GET /v1/openapi.json). */
export const OPENAPI_PATH = '/v1/openapi.json';
