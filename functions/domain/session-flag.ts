/**
 * The app's non-secret marker that a session may exist (spec §2: "stored session flag").
 * Its own module, free of zod, so the app's entry chunk can read it without the schemas of
 * auth-api.ts (which re-exports it for the server and tests).
 */
export const SESSION_FLAG_KEY = 'sb_session';
