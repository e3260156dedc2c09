/** What the contacts page says above its list: an action's outcome or a refusal. */
export type Notice = { readonly kind: 'success' | 'error'; readonly text: string } | null;
