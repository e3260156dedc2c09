/** The verified claims of a caller's token, as API Gateway's JWT authorizer passes them on. */
export type JwtClaims = Record<string, string | number | boolean | string[]>;
