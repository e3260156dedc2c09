/**
 * The request core of the AWS layer: the retry policy (the SDK's standard mode), timeouts,
 * credentials and error mapping of every protocol (S3 XML, JSON __type, x-amzn-ErrorType,
 * HEAD without a body, S3's 200 with an error document), with fetch stubbed.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AwsError, MAX_ATTEMPTS, envCredentials, isRetryable, parseJsonError, retryDelayMs, send, type AwsRequest } from '../../../functions/lib/aws/core';
import { createS3 } from '../../../functions/lib/aws/s3';
import { createCognito } from '../../../functions/lib/aws/cognito';
import { createLambda } from '../../../functions/lib/aws/lambda';
import { jsonError, jsonResponse, s3Error, stubFetch, xmlResponse, type SentRequest } from '../../helpers/fetch-stub';

let calls: SentRequest[];
let restore: () => void;
let answer: (req: SentRequest, attempt: number) => Response | Promise<Response>;

beforeEach(() => {
  process.env.AWS_ACCESS_KEY_ID = 'unit';
  process.env.AWS_SECRET_ACCESS_KEY = 'unit';
  delete process.env.AWS_SESSION_TOKEN;
  answer = () => jsonResponse({});
  ({ calls, restore } = stubFetch((req) => answer(req, calls.length)));
});

afterEach(() => restore());

const req: AwsRequest = { service: 'dynamodb', region: 'us-east-1', method: 'POST', url: 'https://dynamodb.us-east-1.amazonaws.com/', body: '{}' };
const noSleep = { sleep: async () => undefined };
const run = (r: AwsRequest = req) => send(r, { parseError: parseJsonError, read: async (res) => res.status, ...noSleep });
const refused = () => {
  throw new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }) });
};

describe('retry policy', () => {
  it('makes at most three attempts', () => {
    expect(MAX_ATTEMPTS).toBe(3);
  });

  it('retries 5xx, 429, throttling and transient codes and failed connections; never other 4xx', () => {
    const e = (name: string, status?: number) => new AwsError(name, '', status);
    for (const retryable of [e('InternalServerError', 500), e('ServiceUnavailable', 503), e('Http502Error', 502), e('Http504Error', 504), e('TooManyRequestsException', 429)]) {
      expect(isRetryable(retryable), retryable.name).toBe(true);
    }
    for (const code of ['ThrottlingException', 'ProvisionedThroughputExceededException', 'RequestLimitExceeded', 'TooManyRequestsException', 'SlowDown', 'RequestTimeout', 'RequestTimeoutException', 'TransactionInProgressException']) {
      expect(isRetryable(e(code, 400)), code).toBe(true);
    }
    expect(isRetryable(e('ECONNRESET'))).toBe(true);
    expect(isRetryable(e('TimeoutError'))).toBe(true);
    for (const code of ['ValidationException', 'ConditionalCheckFailedException', 'NoSuchKey', 'NotAuthorizedException', 'AccessDenied', 'MethodNotAllowed']) {
      expect(isRetryable(e(code, 400)), code).toBe(false);
    }
    expect(isRetryable(e('NotFound', 404))).toBe(false);
    expect(isRetryable(e('CredentialsProviderError'))).toBe(false);
    expect(isRetryable(new TypeError('x is not a function'))).toBe(false);
  });

  it('backs off exponentially with full jitter: random below 100 ms, 200 ms, 400 ms... capped at 20 s', () => {
    expect(retryDelayMs(1, () => 0.999)).toBe(99);
    expect(retryDelayMs(2, () => 0.999)).toBe(199);
    expect(retryDelayMs(3, () => 0.5)).toBe(200);
    expect(retryDelayMs(20, () => 0.999)).toBe(19_980);
    expect(retryDelayMs(1, () => 0)).toBe(0);
  });

  it('tries again after a 500 and a refused connection, and answers the third attempt', async () => {
    answer = (_r, n) => (n === 1 ? jsonError(500, 'InternalServerError', 'oops') : n === 2 ? refused() : jsonResponse({}));
    expect(await run()).toBe(200);
    expect(calls).toHaveLength(3);
    // each attempt signed afresh
    expect(calls.every((c) => c.headers.get('authorization')?.startsWith('AWS4-HMAC-SHA256 '))).toBe(true);
  });

  it('gives up after three attempts with the last error, naming a refused connection by its code', async () => {
    answer = refused;
    await expect(run()).rejects.toMatchObject({ name: 'ECONNREFUSED', message: 'dynamodb: connect ECONNREFUSED 127.0.0.1:1', $metadata: { attempts: 3 } });
    expect(calls).toHaveLength(3);
  });

  it('sleeps the jittered delay between attempts', async () => {
    const slept: number[] = [];
    answer = () => jsonError(503, 'ServiceUnavailable', 'later');
    await expect(send(req, { parseError: parseJsonError, read: async () => 0, sleep: async (ms) => void slept.push(ms) })).rejects.toMatchObject({ name: 'ServiceUnavailable' });
    expect(slept).toHaveLength(2);
    expect(slept[0]).toBeLessThan(100);
    expect(slept[1]).toBeLessThan(200);
  });

  it('times out an attempt that gets no answer, and retries it', async () => {
    answer = (r) =>
      new Promise((_resolve, reject) => {
        r.signal!.addEventListener('abort', () => reject(r.signal!.reason));
      });
    await expect(run({ ...req, timeoutMs: 20 })).rejects.toMatchObject({ name: 'TimeoutError', $metadata: { attempts: 3 } });
    expect(calls).toHaveLength(3);
  });

  it("stops at once when the caller's signal aborts", async () => {
    const ac = new AbortController();
    answer = () => {
      ac.abort(new Error('job cancelled'));
      return jsonError(500, 'InternalServerError', 'x');
    };
    await expect(run({ ...req, signal: ac.signal })).rejects.toThrow('job cancelled');
    expect(calls).toHaveLength(1);
  });
});

describe('credentials', () => {
  it('come from the environment, session token included', () => {
    process.env.AWS_SESSION_TOKEN = 'tok';
    expect(envCredentials()).toEqual({ accessKeyId: 'unit', secretAccessKey: 'unit', sessionToken: 'tok' });
  });

  it('fail clearly (and without retries) when the environment has none', async () => {
    delete process.env.AWS_ACCESS_KEY_ID;
    await expect(run()).rejects.toMatchObject({ name: 'CredentialsProviderError' });
    expect(calls).toHaveLength(0);
  });

  it('put the session token on signed requests', async () => {
    process.env.AWS_SESSION_TOKEN = 'tok';
    await run();
    expect(calls[0]!.headers.get('x-amz-security-token')).toBe('tok');
  });
});

describe('S3 errors', () => {
  const s3 = createS3({ region: 'ap-east-1' });

  it('a HEAD 404 (no body) is NotFound with status 404', async () => {
    answer = () => new Response(null, { status: 404 });
    await expect(s3.headObject({ Bucket: 'hk-transfers', Key: 'k' })).rejects.toMatchObject({ name: 'NotFound', $metadata: { httpStatusCode: 404 } });
    expect(calls).toHaveLength(1);
  });

  it('an XML error is named by its Code, entities decoded', async () => {
    answer = () => s3Error(404, 'NoSuchUpload', 'The specified upload does not exist. The upload ID may be invalid, or the upload may have been aborted &amp; completed.');
    await expect(s3.completeMultipartUpload({ Bucket: 'hk-transfers', Key: 'k', UploadId: 'u', MultipartUpload: { Parts: [] } })).rejects.toMatchObject({
      name: 'NoSuchUpload',
      Code: 'NoSuchUpload',
      message: 'The specified upload does not exist. The upload ID may be invalid, or the upload may have been aborted & completed.',
      $metadata: { httpStatusCode: 404 },
    });
  });

  it('a 200 with an error document (CompleteMultipartUpload, CopyObject) throws, and InternalError is retried', async () => {
    answer = (_r, n) => (n < 3 ? xmlResponse('<Error><Code>InternalError</Code><Message>We encountered an internal error.</Message></Error>') : xmlResponse('<CompleteMultipartUploadResult><ETag>&quot;e-2&quot;</ETag></CompleteMultipartUploadResult>'));
    expect(await s3.completeMultipartUpload({ Bucket: 'hk-transfers', Key: 'k', UploadId: 'u', MultipartUpload: { Parts: [{ PartNumber: 1, ETag: '"a"' }] } })).toEqual({ ETag: '"e-2"' });
    expect(calls).toHaveLength(3);
    answer = () => xmlResponse('<Error><Code>AccessDenied</Code><Message>no</Message></Error>');
    await expect(s3.copyObject({ Bucket: 'hk-transfers', Key: 'k', CopySource: 'hk-transfers/s' })).rejects.toMatchObject({ name: 'AccessDenied' });
  });

  it('follows no redirect (a bucket in another region answers 301)', async () => {
    answer = () => new Response(null, { status: 301, headers: { 'x-amz-bucket-region': 'eu-central-1' } });
    await expect(s3.headBucket({ Bucket: 'hk-transfers' })).rejects.toMatchObject({ name: 'MovedPermanently', $metadata: { httpStatusCode: 301 } });
  });

  it('lists and deletes a prefix page: query, Content-MD5, keys escaped in XML and decoded from it', async () => {
    answer = (r) =>
      r.method === 'GET'
        ? xmlResponse(
            '<ListBucketResult><IsTruncated>true</IsTruncated><Contents><Key>t/a&amp;b.txt</Key><Size>3</Size></Contents><Contents><Key>t/&lt;c&gt;</Key><Size>0</Size></Contents><NextContinuationToken>tok/+=</NextContinuationToken></ListBucketResult>',
          )
        : xmlResponse('<DeleteResult><Deleted><Key>t/a&amp;b.txt</Key></Deleted><Error><Key>t/&lt;c&gt;</Key><Code>AccessDenied</Code><Message>no</Message></Error></DeleteResult>');
    const page = await s3.listObjectsV2({ Bucket: 'hk-transfers', Prefix: 't/', MaxKeys: 1000, ContinuationToken: 'prev token' });
    expect(calls[0]!.url.href).toBe('https://hk-transfers.s3.ap-east-1.amazonaws.com/?list-type=2&prefix=t%2F&continuation-token=prev%20token&max-keys=1000');
    expect(page).toEqual({ Contents: [{ Key: 't/a&b.txt', Size: 3 }, { Key: 't/<c>', Size: 0 }], IsTruncated: true, NextContinuationToken: 'tok/+=' });
    const out = await s3.deleteObjects({ Bucket: 'hk-transfers', Delete: { Objects: page.Contents!.map((o) => ({ Key: o.Key! })), Quiet: true } });
    const del = calls[1]!;
    expect(del.url.search).toBe('?delete=');
    const body = '<Delete xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Quiet>true</Quiet><Object><Key>t/a&amp;b.txt</Key></Object><Object><Key>t/&lt;c&gt;</Key></Object></Delete>';
    expect(del.body.toString()).toBe(body);
    expect(del.headers.get('content-md5')).toBe((await import('node:crypto')).createHash('md5').update(body).digest('base64'));
    expect(out).toEqual({ Deleted: [{ Key: 't/a&b.txt' }], Errors: [{ Key: 't/<c>', Code: 'AccessDenied', Message: 'no' }] });
  });

  it('streams GetObject with Range and If-Match, and a 412 is PreconditionFailed', async () => {
    answer = (r) =>
      r.headers.get('if-match') === '"old"' ? s3Error(412, 'PreconditionFailed', 'At least one of the pre-conditions you specified did not hold') : new Response('world', { status: 206, headers: { etag: '"new"', 'content-length': '5' } });
    const res = await s3.getObject({ Bucket: 'hk-transfers', Key: 'a b', Range: 'bytes=6-', IfMatch: '"new"' });
    expect(calls[0]!.url.pathname).toBe('/a%20b');
    expect(calls[0]!.headers.get('range')).toBe('bytes=6-');
    expect(res).toMatchObject({ ContentLength: 5, ETag: '"new"' });
    const chunks: Buffer[] = [];
    for await (const c of res.Body) chunks.push(Buffer.from(c as Uint8Array));
    expect(Buffer.concat(chunks).toString()).toBe('world');
    await expect(s3.getObject({ Bucket: 'hk-transfers', Key: 'k', IfMatch: '"old"' })).rejects.toMatchObject({ name: 'PreconditionFailed', $metadata: { httpStatusCode: 412 } });
  });
});

describe('Cognito and Lambda', () => {
  const idp = createCognito({ region: 'ap-east-1' });

  it('sends InitiateAuth unsigned (a public operation) and names errors by __type', async () => {
    answer = () => jsonError(400, 'NotAuthorizedException', 'Incorrect username or password.');
    await expect(idp.initiateAuth({ ClientId: 'c', AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: 'a', PASSWORD: 'b' } })).rejects.toMatchObject({
      name: 'NotAuthorizedException',
      $metadata: { httpStatusCode: 400 },
    });
    expect(calls[0]!.url.href).toBe('https://cognito-idp.ap-east-1.amazonaws.com/');
    expect(calls[0]!.headers.get('x-amz-target')).toBe('AWSCognitoIdentityProviderService.InitiateAuth');
    expect(calls[0]!.headers.get('content-type')).toBe('application/x-amz-json-1.1');
    expect(calls[0]!.headers.has('authorization')).toBe(false);
  });

  it('signs the admin operations', async () => {
    answer = () => jsonError(400, 'UsernameExistsException', 'User account already exists');
    await expect(idp.adminCreateUser({ UserPoolId: 'p', Username: 'a@example.com' })).rejects.toMatchObject({ name: 'UsernameExistsException' });
    expect(calls[0]!.headers.get('authorization')).toMatch(/\/ap-east-1\/cognito-idp\/aws4_request/u);
  });

  it('starts a job with an async Invoke and answers its 202', async () => {
    answer = () => new Response(null, { status: 202 });
    const lambda = createLambda({ region: 'ap-east-1', endpoint: 'http://127.0.0.1:3201' });
    expect(await lambda.invokeEvent('sendbridge-zip-build', '{"slug":"x"}')).toEqual({ StatusCode: 202 });
    expect(calls[0]!.url.href).toBe('http://127.0.0.1:3201/2015-03-31/functions/sendbridge-zip-build/invocations');
    expect(calls[0]!.headers.get('x-amz-invocation-type')).toBe('Event');
    expect(calls[0]!.body.toString()).toBe('{"slug":"x"}');
  });

  it('names Lambda errors by x-amzn-ErrorType', async () => {
    answer = () => new Response(JSON.stringify({ Type: 'User', Message: 'Function not found: arn' }), { status: 404, headers: { 'x-amzn-errortype': 'ResourceNotFoundException' } });
    await expect(createLambda({ region: 'ap-east-1' }).invokeEvent('nope', '{}')).rejects.toMatchObject({ name: 'ResourceNotFoundException', message: 'Function not found: arn' });
  });
});
