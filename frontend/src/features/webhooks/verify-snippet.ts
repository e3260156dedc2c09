/**
 * The verification snippet of docs/webhooks.md ("Verifying a delivery"), shown on the webhooks
 * screen. test/unit/frontend/webhooks/webhooks.test.ts keeps the two identical, and the
 * integration test runs the docs' copy against real deliveries.
 */
export const VERIFY_SNIPPET =
  "import { Webhook } from 'standardwebhooks';\n\n/** rawBody: the request body as received (string or Buffer); headers: the request's headers; secret: whsec_… */\nexport function verifySendBridgeWebhook(rawBody, headers, secret) {\n  try {\n    new Webhook(secret).verify(rawBody, headers);\n    return true;\n  } catch {\n    return false;\n  }\n}\n";
