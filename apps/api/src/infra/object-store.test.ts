import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { findEntriesOpenToOthers } from '../../test/open-entries';
import { createObjectStore } from './create-object-store';
import {
  createLocalObjectStore,
  createS3Client,
  createS3ObjectStore,
  type S3ObjectStoreOptions,
} from './object-store';

describe('the local object store', () => {
  const root = join(tmpdir(), `bmet-object-store-test-${randomUUID()}`);
  const store = createLocalObjectStore(root);
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('puts, gets (typed by extension) and deletes an object', async () => {
    await store.put('images/d1/panCard.png', new Uint8Array([1, 2, 3]), 'image/png');
    const object = await store.get('images/d1/panCard.png');
    expect(object && Buffer.from(object.body)).toEqual(Buffer.from([1, 2, 3]));
    expect(object?.contentType).toBe('image/png');
    await store.delete('images/d1/panCard.png');
    expect(await store.get('images/d1/panCard.png')).toBeNull();
    await expect(store.delete('images/d1/panCard.png')).resolves.toBeUndefined();
  });

  it('refuses a key that leaves its folder', async () => {
    await expect(store.get('../outside.jpg')).rejects.toThrow(/Invalid object key/);
  });

  it('keeps images private to the server user whatever the umask (folders 0700, files 0600)', async () => {
    const previous = process.umask(0);
    try {
      const own = createLocalObjectStore(join(root, 'private'));
      await own.put('images/d2/aadharCard.jpg', new Uint8Array([4, 5]), 'image/jpeg');
      await own.put('images/d2/aadharCard.jpg', new Uint8Array([6]), 'image/jpeg');
    } finally {
      process.umask(previous);
    }
    expect(findEntriesOpenToOthers(join(root, 'private'))).toEqual([]);
    expect(statSync(join(root, 'private/images/d2/aadharCard.jpg')).mode & 0o777).toBe(0o600);
  });
});

/**
 * No S3 server runs here: the client is given a request handler that records each HTTP request
 * the SDK would send (addressing, signing, headers) and answers it as S3 would.
 */
type Recorded = { method: string; url: string; headers: Record<string, string>; body: unknown };

function fakeS3(
  answer: (request: Recorded) => {
    statusCode: number;
    headers?: Record<string, string>;
    body?: string | Buffer;
  },
) {
  const requests: Recorded[] = [];
  const requestHandler = {
    async handle(request: {
      method: string;
      protocol: string;
      hostname: string;
      port?: number;
      path: string;
      headers: Record<string, string>;
      body?: unknown;
    }) {
      const recorded = {
        method: request.method,
        url: `${request.protocol}//${request.hostname}${request.port ? `:${request.port}` : ''}${request.path}`,
        headers: request.headers,
        body: request.body,
      };
      requests.push(recorded);
      const { statusCode, headers = {}, body } = answer(recorded);
      return {
        response: { statusCode, headers, body: Readable.from(body === undefined ? [] : [Buffer.from(body)]) },
      };
    },
  };
  return { requests, requestHandler };
}

const OPTIONS: S3ObjectStoreOptions = {
  bucket: 'bmet-documents',
  endpoint: 'http://minio.internal:9000',
  region: 'ap-south-1',
  accessKeyId: 'AKIDEXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
  forcePathStyle: true,
};

describe('the S3 object store', () => {
  it('puts an object in the bucket, path-style on the configured endpoint, signed with the keys', async () => {
    const s3 = fakeS3(() => ({ statusCode: 200, headers: { etag: '"abc"' } }));
    const store = createS3ObjectStore(
      OPTIONS,
      createS3Client(OPTIONS, { requestHandler: s3.requestHandler }),
    );
    await store.put('images/d1/panCard.jpg', new Uint8Array([9, 8, 7]), 'image/jpeg');

    expect(s3.requests).toHaveLength(1);
    const [request] = s3.requests;
    expect(request).toMatchObject({
      method: 'PUT',
      url: 'http://minio.internal:9000/bmet-documents/images/d1/panCard.jpg',
    });
    expect(request!.headers['content-type']).toBe('image/jpeg');
    expect(request!.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/ap-south-1\/s3\/aws4_request/,
    );
  });

  it('addresses the bucket as a host name when path style is off', async () => {
    const options = { ...OPTIONS, endpoint: undefined, forcePathStyle: false };
    const s3 = fakeS3(() => ({ statusCode: 204 }));
    const store = createS3ObjectStore(
      options,
      createS3Client(options, { requestHandler: s3.requestHandler }),
    );
    await store.delete('images/d1/panCard.jpg');
    expect(s3.requests[0]).toMatchObject({
      method: 'DELETE',
      url: 'https://bmet-documents.s3.ap-south-1.amazonaws.com/images/d1/panCard.jpg',
    });
  });

  it('gets the bytes and content type of an object', async () => {
    const s3 = fakeS3(() => ({
      statusCode: 200,
      headers: { 'content-type': 'image/png', 'content-length': '3' },
      body: Buffer.from([1, 2, 3]),
    }));
    const store = createS3ObjectStore(
      OPTIONS,
      createS3Client(OPTIONS, { requestHandler: s3.requestHandler }),
    );
    const object = await store.get('images/d1/panCard.png');
    expect(s3.requests[0]).toMatchObject({
      method: 'GET',
      url: 'http://minio.internal:9000/bmet-documents/images/d1/panCard.png',
    });
    expect(object && Buffer.from(object.body)).toEqual(Buffer.from([1, 2, 3]));
    expect(object?.contentType).toBe('image/png');
  });

  it('answers null for a missing object', async () => {
    const s3 = fakeS3(() => ({
      statusCode: 404,
      headers: { 'content-type': 'application/xml' },
      body: '<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>',
    }));
    const store = createS3ObjectStore(
      OPTIONS,
      createS3Client(OPTIONS, { requestHandler: s3.requestHandler }),
    );
    expect(await store.get('images/none.jpg')).toBeNull();
  });

  it('passes other failures on', async () => {
    const s3 = fakeS3(() => ({
      statusCode: 403,
      headers: { 'content-type': 'application/xml' },
      body: '<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>',
    }));
    const client = createS3Client(OPTIONS, { requestHandler: s3.requestHandler, maxAttempts: 1 });
    const store = createS3ObjectStore(OPTIONS, client);
    await expect(store.get('images/d1/panCard.jpg')).rejects.toMatchObject({ name: 'AccessDenied' });
  });

  it('is what the configuration names when a bucket is set', async () => {
    const store = createObjectStore({ kind: 's3', ...OPTIONS });
    expect(Object.keys(store).sort()).toEqual(['delete', 'get', 'put']);
  });

  it('refuses an access key without its secret', () => {
    expect(() => createS3Client({ ...OPTIONS, secretAccessKey: undefined })).toThrow(
      /S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY/,
    );
  });
});
