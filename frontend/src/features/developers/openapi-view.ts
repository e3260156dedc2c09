/**
 * what the /developers page shows of the OpenAPI 3.1 document served at
 * GET /api/v1/openapi.json (functions/domain/openapi.ts): its operations grouped by tag, each
 * with method, path, summary, scope, parameters, request body fields (from the JSON Schemas)
 * and the success answer's fields (from its example). A few dozen lines instead of a renderer
 * library, so the lazy page stays small.
 */

type Json = Record<string, unknown>;

export interface FieldView {
  readonly name: string;
  readonly type: string;
  readonly required: boolean;
  readonly description?: string;
  /** `path` or `query` for parameters; absent for body and answer fields */
  readonly in?: string;
}

export interface OperationView {
  /** `POST /v1/transfers` */
  readonly id: string;
  /** the document's operationId (`postTransfers`): the key of its texts in the `api` catalogues */
  readonly operationId?: string;
  readonly method: string;
  readonly path: string;
  readonly summary: string;
  readonly description: string;
  readonly scope?: string;
  readonly parameters: readonly FieldView[];
  readonly body: readonly FieldView[];
  readonly status: string;
  readonly response: readonly FieldView[];
  readonly example?: unknown;
}

export interface TagView {
  readonly name: string;
  readonly operations: readonly OperationView[];
}

export interface ApiDocView {
  readonly title: string;
  readonly version: string;
  readonly serverUrl: string;
  readonly tags: readonly TagView[];
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A JSON Schema's type in a few words: `string`, `integer`, `array of object`, `"link" | "email"`. */
export function typeOf(schema: unknown): string {
  if (!isObject(schema)) return 'any';
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  for (const key of ['anyOf', 'oneOf'] as const) {
    const alts = schema[key];
    if (Array.isArray(alts)) return [...new Set(alts.map(typeOf))].join(' | ');
  }
  if (schema.type === 'array') return `array of ${typeOf(schema.items)}`;
  if (Array.isArray(schema.type)) return schema.type.join(' | ');
  if (typeof schema.type === 'string') return schema.type;
  return 'any';
}

/** The properties of an object schema as fields. */
export function fieldsOf(schema: unknown): FieldView[] {
  if (!isObject(schema) || !isObject(schema.properties)) return [];
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  return Object.entries(schema.properties).map(([name, s]) => ({
    name,
    type: typeOf(s),
    required: required.has(name),
    ...(isObject(s) && typeof s.description === 'string' ? { description: s.description } : {}),
  }));
}

/** The fields of an example answer (an answer's shape where the document has only its example). */
export function exampleFields(example: unknown): FieldView[] {
  if (!isObject(example)) return [];
  return Object.entries(example).map(([name, v]) => ({
    name,
    type: Array.isArray(v)
      ? `array of ${v.length && isObject(v[0]) ? 'object' : typeof v[0]}`
      : v === null
        ? 'null'
        : Number.isInteger(v)
          ? 'integer'
          : typeof v,
    required: true,
  }));
}

function operationOf(method: string, path: string, op: Json): OperationView {
  const parameters = (Array.isArray(op.parameters) ? op.parameters : []).filter(isObject).map((p) => ({
    name: String(p.name),
    type: typeOf(p.schema),
    required: p.required === true,
    in: String(p.in),
  }));
  const body = fieldsOf(
    (((op.requestBody as Json | undefined)?.content as Json | undefined)?.['application/json'] as Json | undefined)
      ?.schema,
  );
  const responses = isObject(op.responses) ? op.responses : {};
  const status = Object.keys(responses).find((s) => s.startsWith('2')) ?? '200';
  const example = (
    ((responses[status] as Json | undefined)?.content as Json | undefined)?.['application/json'] as Json | undefined
  )?.example;
  const description = typeof op.description === 'string' ? op.description.replace(/\n\nScope: `[^`]*`\.$/u, '') : '';
  const scope = typeof op['x-sendbridge-scope'] === 'string' ? op['x-sendbridge-scope'] : undefined;
  return {
    id: `${method.toUpperCase()} ${path}`,
    ...(typeof op.operationId === 'string' ? { operationId: op.operationId } : {}),
    method: method.toUpperCase(),
    path,
    summary: typeof op.summary === 'string' ? op.summary : '',
    description,
    ...(scope ? { scope } : {}),
    parameters,
    body,
    status,
    response: exampleFields(example),
    ...(example !== undefined ? { example } : {}),
  };
}

/** The document as the page shows it: operations grouped by their first tag, in the document's tag order. */
export function apiDocView(doc: unknown): ApiDocView {
  if (!isObject(doc) || !isObject(doc.paths)) throw new Error('not an OpenAPI document');
  const info = isObject(doc.info) ? doc.info : {};
  const servers = Array.isArray(doc.servers) ? doc.servers.filter(isObject) : [];
  const byTag = new Map<string, OperationView[]>();
  for (const t of Array.isArray(doc.tags) ? doc.tags.filter(isObject) : []) byTag.set(String(t.name), []);
  for (const [path, item] of Object.entries(doc.paths)) {
    if (!isObject(item)) continue;
    for (const method of METHODS) {
      const op = item[method];
      if (!isObject(op)) continue;
      const tag = Array.isArray(op.tags) && typeof op.tags[0] === 'string' ? op.tags[0] : 'Other';
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag)!.push(operationOf(method, path, op));
    }
  }
  return {
    title: typeof info.title === 'string' ? info.title : 'API',
    version: typeof info.version === 'string' ? info.version : '',
    serverUrl: typeof servers[0]?.url === 'string' ? servers[0].url : '',
    tags: [...byTag].filter(([, ops]) => ops.length > 0).map(([name, operations]) => ({ name, operations })),
  };
}
