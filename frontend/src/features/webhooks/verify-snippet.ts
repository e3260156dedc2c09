/**
 * The verification snippet of docs/webhooks.md ("Verifying a delivery"), shown on the webhooks
 * screen. test/unit/frontend/webhooks/webhooks.test.ts keeps the two identical, and the
 * integration test runs the docs' copy against real deliveries.
 */
export const VERIFY_SNIPPET = "import { createHmac, timingSafeEqual } from 'node:crypto';\n\n/** rawBody: the request body as received (string or Buffer); headers: lower-case names. */\nexport function verifySendBridgeWebhook(rawBody, headers, secret, toleranceSeconds = 300) {\n  const timestamp = Number(headers['sendbridge-timestamp']);\n  if (!Number.isInteger(timestamp) || Math.abs(Date.now() / 1000 - timestamp) > toleranceSeconds) return false;\n  const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest();\n  return String(headers['sendbridge-signature'] ?? '')\n    .split(' ')\n    .filter((part) => part.startsWith('v1='))\n    .some((part) => {\n      const given = Buffer.from(part.slice(3), 'hex');\n      return given.length === expected.length && timingSafeEqual(given, expected);\n    });\n}\n";
