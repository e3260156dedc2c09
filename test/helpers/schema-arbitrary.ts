/**
 * fast-check arbitraries derived from zod schemas (zod v4, through `z.toJSONSchema` of the
 * input side), and mutations of what they produce: wrong types, huge strings, deep nesting,
 * unicode, arrays for objects, missing and extra keys. Used by test/integration/fuzz.test.ts.
 */
import fc from 'fast-check';
import * as z from 'zod/mini';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema | boolean;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  enum?: Json[];
  const?: Json;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
}

/** Arbitraries for a field name, mixed in with the schema's own (real ids, plausible emails...). */
export type Hints = Readonly<Record<string, fc.Arbitrary<unknown>>>;

const INT32 = 2 ** 31 - 1;

export function jsonSchemaOf(schema: z.core.$ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
}

/** Values that satisfy the schema's shape (types, bounds, patterns, required keys). */
export function arbitraryOf(js: JsonSchema, hints: Hints = {}, key?: string): fc.Arbitrary<unknown> {
  const base = baseArbitrary(js, hints);
  const hint = key !== undefined ? hints[key] : undefined;
  return hint ? fc.oneof(hint, base) : base;
}

function baseArbitrary(js: JsonSchema, hints: Hints): fc.Arbitrary<unknown> {
  if (js.const !== undefined) return fc.constant(js.const);
  if (js.enum) return fc.constantFrom(...js.enum);
  const union = js.anyOf ?? js.oneOf;
  if (union?.length) return fc.oneof(...union.map((s) => arbitraryOf(s, hints)));
  if (js.allOf?.length) return arbitraryOf(js.allOf[0]!, hints);
  const type = Array.isArray(js.type) ? js.type[0] : js.type;
  switch (type) {
    case 'object': {
      if (js.properties) {
        const model = Object.fromEntries(Object.entries(js.properties).map(([k, s]) => [k, arbitraryOf(s, hints, k)]));
        return fc.record(model, { requiredKeys: (js.required ?? []).filter((k) => k in model) });
      }
      const values =
        typeof js.additionalProperties === 'object'
          ? arbitraryOf(js.additionalProperties, hints)
          : fc.jsonValue({ maxDepth: 2 });
      return fc.dictionary(fc.string({ maxLength: 12 }), values, { maxKeys: 5 });
    }
    case 'string': {
      if (js.pattern) return fc.stringMatching(new RegExp(js.pattern, 'u'));
      const minLength = js.minLength ?? 0;
      return fc.string({
        minLength,
        maxLength: Math.max(minLength, Math.min(js.maxLength ?? 40, 40)),
        unit: 'grapheme',
      });
    }
    case 'integer': {
      const min = Math.max(
        -INT32,
        js.exclusiveMinimum !== undefined ? js.exclusiveMinimum + 1 : (js.minimum ?? -INT32),
      );
      const max = Math.min(INT32, js.exclusiveMaximum !== undefined ? js.exclusiveMaximum - 1 : (js.maximum ?? INT32));
      return min <= max ? fc.integer({ min, max }) : fc.integer();
    }
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const minLength = js.minItems ?? 0;
      return fc.array(js.items ? arbitraryOf(js.items, hints) : fc.jsonValue({ maxDepth: 1 }), {
        minLength,
        maxLength: Math.max(minLength, Math.min(js.maxItems ?? 4, 4)),
      });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function nested(depth: number, inner: Json): Json {
  let v: Json = inner;
  for (let i = 0; i < depth; i += 1) v = i % 2 ? [v] : { a: v };
  return v;
}

/** Values no schema field should choke on. */
export const junk: fc.Arbitrary<Json> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.constantFrom(1e308, -1e308, 2 ** 53 + 1, -0, 0.1, -1, 1e-300),
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '\ud800x',
    '\u202e\u0301\ufeff',
    '𝕏🧑‍🚀'.repeat(40),
    '../../etc/passwd',
    '<script>alert(1)</script>',
    "' OR 1=1 --",
    '${7*7}{{7*7}}',
    '%00%2e%2e%2f',
    '__proto__',
    'constructor',
    'toString',
    'a@b',
    `${'x'.repeat(300)}@example.com`,
  ),
  fc.constantFrom(20_000, 300_000, 1_100_000).map((n) => 'A'.repeat(n)),
  fc.constantFrom(10, 200, 3000).map((d) => nested(d, 'deep')),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }) as fc.Arbitrary<Json>,
  fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }) as fc.Arbitrary<Json>,
);

type Mutation =
  | { readonly op: 'replace'; readonly at: number; readonly value: Json }
  | { readonly op: 'delete'; readonly at: number }
  | { readonly op: 'wrap'; readonly at: number }
  | { readonly op: 'add'; readonly at: number; readonly key: string; readonly value: Json };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ op: fc.constant('replace' as const), at: fc.nat(), value: junk }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('delete' as const), at: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('wrap' as const), at: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('add' as const),
      at: fc.nat(),
      key: fc.oneof(fc.constantFrom('__proto__', 'constructor', 'prototype', 'id', ''), fc.string({ maxLength: 8 })),
      value: junk,
    }),
  },
);

/** The paths inside a JSON value, the root ([]) first; at most 200, at most 12 deep (nesting junk is not walked). */
function pathsOf(v: unknown, at: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(at);
  if (out.length > 200 || at.length >= 12) return out;
  if (Array.isArray(v)) v.forEach((x, i) => pathsOf(x, [...at, i], out));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) pathsOf(x, [...at, k], out);
  return out;
}

function withKey(obj: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const copy = { ...obj };
  // defineProperty, so '__proto__' becomes an own key that JSON.stringify sends
  Object.defineProperty(copy, key, { value, enumerable: true, configurable: true, writable: true });
  return copy;
}

/** The mutation applied at one path, copying only the containers along it (deep junk is shared, never walked). */
function change(node: unknown, path: readonly (string | number)[], m: Mutation): unknown {
  if (path.length === 0) {
    if (m.op === 'replace') return m.value;
    if (m.op === 'wrap') return [node];
    if (m.op === 'add' && node && typeof node === 'object' && !Array.isArray(node))
      return withKey(node as Record<string, unknown>, m.key, m.value);
    return node;
  }
  const [head, ...rest] = path;
  if (Array.isArray(node)) {
    const i = Number(head);
    if (rest.length === 0 && m.op === 'delete') return node.filter((_, j) => j !== i);
    return node.map((x, j) => (j === i ? change(x, rest, m) : x));
  }
  const obj = node as Record<string, unknown>;
  const key = String(head);
  if (rest.length === 0 && m.op === 'delete') return Object.fromEntries(Object.entries(obj).filter(([k]) => k !== key));
  return withKey(obj, key, change(obj[key], rest, m));
}

function apply(value: unknown, m: Mutation): unknown {
  const paths = pathsOf(value);
  return change(value, paths[m.at % paths.length]!, m);
}

/**
 * Valid values (two in five runs: they reach the code behind the schema), and the same with
 * one to three mutations.
 */
export function mutated(valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 2, arbitrary: valid },
    {
      weight: 3,
      arbitrary: fc
        .tuple(valid, fc.array(mutation, { minLength: 1, maxLength: 3 }))
        .map(([v, ms]) => ms.reduce(apply, v)),
    },
  );
}
