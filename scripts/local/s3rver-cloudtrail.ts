/**
 * CloudTrail data events of GetObject, locally: what a trail logging the buckets' GetObject
 * calls sends to EventBridge in AWS ("AWS API Call via CloudTrail", docs/decisions/0077), made by
 * the s3rver child once each GetObject's response is over: `bytesTransferredOut` is the body
 * bytes the response handed to the connection (an aborted response reports what it got to
 * send), `requestParameters` the bucket, key, Host and the query parameters (a presigned URL's,
 * its signature and credential left out as CloudTrail leaves them out).
 *
 * Where events go is set per bucket, as a trail's selectors name its buckets: `PUT
 * /__sendbridge/cloudtrail` with `{ buckets, target }` (a Lambda Invoke URL, async; `target:
 * null` stops). The targets are kept in a file beside the store, so a restarted s3rver keeps them.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

export const CLOUDTRAIL_CONTROL_PATH = '/__sendbridge/cloudtrail';

/** Subresources whose GET is another call than GetObject (GetObjectAcl, GetObjectTagging...). */
const OTHER_CALLS = ['acl', 'tagging', 'torrent', 'retention', 'legal-hold', 'attributes', 'uploadId'];
/** Query parameters CloudTrail does not log. */
const UNLOGGED = new Set(['X-Amz-Signature', 'X-Amz-Credential', 'X-Amz-Security-Token']);

export interface GetObjectCall {
  readonly bucket: string;
  readonly key: string;
  readonly host: string;
  readonly query: URLSearchParams;
  readonly status: number;
  readonly bytes: number;
  readonly sourceIp: string;
  readonly userAgent: string;
  readonly at: Date;
}

/** The EventBridge event of one GetObject call, in CloudTrail's data event shape. */
export function cloudTrailEvent(call: GetObjectCall): Record<string, unknown> {
  const requestParameters: Record<string, string> = { bucketName: call.bucket, Host: call.host, key: call.key };
  for (const [k, v] of call.query) if (!UNLOGGED.has(k)) requestParameters[k] = v;
  const presigned = call.query.has('X-Amz-Signature');
  const time = `${call.at.toISOString().slice(0, 19)}Z`;
  return {
    version: '0',
    id: randomUUID(),
    'detail-type': 'AWS API Call via CloudTrail',
    source: 'aws.s3',
    account: '000000000000',
    time,
    region: 'us-east-1',
    resources: [],
    detail: {
      eventVersion: '1.10',
      eventTime: time,
      eventSource: 's3.amazonaws.com',
      eventName: 'GetObject',
      awsRegion: 'us-east-1',
      sourceIPAddress: call.sourceIp,
      userAgent: call.userAgent,
      requestParameters,
      responseElements: null,
      additionalEventData: {
        SignatureVersion: 'SigV4',
        AuthenticationMethod: presigned ? 'QueryString' : 'AuthHeader',
        bytesTransferredIn: 0,
        bytesTransferredOut: call.bytes,
      },
      requestID: randomUUID().replace(/-/gu, '').slice(0, 16).toUpperCase(),
      eventID: randomUUID(),
      readOnly: true,
      resources: [
        { type: 'AWS::S3::Object', ARN: `arn:aws:s3:::${call.bucket}/${call.key}` },
        { accountId: '000000000000', type: 'AWS::S3::Bucket', ARN: `arn:aws:s3:::${call.bucket}` },
      ],
      eventType: 'AwsApiCall',
      managementEvent: false,
      recipientAccountId: '000000000000',
      eventCategory: 'Data',
    },
  };
}

/** The bucket and key of a path-style GetObject request, or undefined for any other call. */
export function getObjectTarget(
  method: string | undefined,
  url: string,
): { bucket: string; key: string; query: URLSearchParams } | undefined {
  if (method !== 'GET') return undefined;
  const parsed = new URL(url, 'http://local');
  const [, bucket, ...rest] = parsed.pathname.split('/');
  const key = rest.map((p) => decodeURIComponent(p)).join('/');
  if (!bucket || !key) return undefined;
  if (OTHER_CALLS.some((s) => parsed.searchParams.has(s))) return undefined;
  return { bucket: decodeURIComponent(bucket), key, query: parsed.searchParams };
}

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Puts the CloudTrail emitter in front of the server's request listeners (s3rver's Koa app):
 * the control path is answered here, every other request goes on to s3rver unchanged.
 */
export function applyCloudTrailEvents(server: Server, targetsFile: string, log: (l: string) => void): void {
  const targets = new Map<string, string>(
    existsSync(targetsFile)
      ? Object.entries(JSON.parse(readFileSync(targetsFile, 'utf8')) as Record<string, string>)
      : [],
  );
  const listeners = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');

  const control = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { buckets?: unknown; target?: unknown };
        if (!Array.isArray(body.buckets) || !(typeof body.target === 'string' || body.target === null))
          throw new Error('expected { buckets: string[], target: string | null }');
        for (const b of body.buckets) {
          if (typeof b !== 'string') continue;
          if (body.target === null) targets.delete(b);
          else targets.set(b, body.target);
        }
        writeFileSync(targetsFile, JSON.stringify(Object.fromEntries(targets)));
        res.writeHead(204).end();
      } catch (err) {
        res.writeHead(400, { 'content-type': 'text/plain' }).end(String(err));
      }
    });
  };

  const emit = (target: string, event: Record<string, unknown>) => {
    fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-amz-invocation-type': 'Event' },
      body: JSON.stringify(event),
    })
      .then((r) => {
        if (!r.ok) log(`cloudtrail event not taken by ${target}: ${r.status}`);
      })
      .catch((err: unknown) => log(`cloudtrail event not sent to ${target}: ${String(err)}`));
  };

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'PUT' && req.url === CLOUDTRAIL_CONTROL_PATH) return control(req, res);
    const call = getObjectTarget(req.method, req.url ?? '/');
    const target = call ? targets.get(call.bucket) : undefined;
    if (call && target) {
      // body bytes handed to the connection; what still waited in its buffers when it closed was never sent
      let written = 0;
      const write = res.write.bind(res) as (...a: unknown[]) => boolean;
      const end = res.end.bind(res) as (...a: unknown[]) => ServerResponse;
      const count = (chunk: unknown) => {
        if (typeof chunk === 'string') written += Buffer.byteLength(chunk);
        else if (chunk instanceof Uint8Array) written += chunk.byteLength;
      };
      res.write = ((chunk: unknown, ...rest: unknown[]) => {
        count(chunk);
        return write(chunk, ...rest);
      }) as typeof res.write;
      res.end = ((chunk?: unknown, ...rest: unknown[]) => {
        if (typeof chunk !== 'function') count(chunk);
        return end(chunk, ...rest);
      }) as typeof res.end;
      res.once('close', () => {
        if (res.statusCode >= 400) return;
        const unsent = res.writableFinished ? 0 : res.writableLength + (res.socket?.writableLength ?? 0);
        emit(
          target,
          cloudTrailEvent({
            ...call,
            host: req.headers.host ?? '',
            status: res.statusCode,
            bytes: Math.max(0, written - unsent),
            sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
            userAgent: req.headers['user-agent'] ?? '',
            at: new Date(),
          }),
        );
      });
    }
    for (const l of listeners) l.call(server, req, res);
  });
}
