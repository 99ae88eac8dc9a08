import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3ObjectStore, type ObjectStore } from './object-store';

// A real S3-protocol server on loopback: the SDK's addressing, signing and error answers all meet
// a server that speaks S3, not a stand-in.
describe('the S3 object store against an S3-protocol server', () => {
  const folder = mkdtempSync(join(tmpdir(), 'bmet-s3rver-'));
  let server: S3rver;
  let store: ObjectStore;

  beforeAll(async () => {
    server = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory: folder,
      configureBuckets: [{ name: 'documents', configs: [] }],
    });
    const address = (await server.run()) as AddressInfo;
    store = createS3ObjectStore({
      bucket: 'documents',
      endpoint: `http://127.0.0.1:${address.port}`,
      region: 'us-east-1',
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
    });
  });
  afterAll(async () => {
    await server?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('stores an image and reads it back with its type', async () => {
    const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4]);
    await store.put('images/driver-1/panCard.jpg', jpeg, 'image/jpeg');
    const read = await store.get('images/driver-1/panCard.jpg');
    expect(read?.contentType).toBe('image/jpeg');
    expect([...read!.body]).toEqual([...jpeg]);
  });

  it('replaces an image under the same key', async () => {
    await store.put('images/driver-2/rcCertificate.png', new Uint8Array([1, 1, 1]), 'image/png');
    await store.put('images/driver-2/rcCertificate.png', new Uint8Array([9, 8, 7, 6]), 'image/png');
    const read = await store.get('images/driver-2/rcCertificate.png');
    expect([...read!.body]).toEqual([9, 8, 7, 6]);
    expect(read?.contentType).toBe('image/png');
  });

  it('answers null for a missing object, and for one deleted', async () => {
    expect(await store.get('images/nobody/aadharCard.jpg')).toBeNull();
    await store.put('images/driver-3/addressProof.jpg', new Uint8Array([5]), 'image/jpeg');
    await store.delete('images/driver-3/addressProof.jpg');
    expect(await store.get('images/driver-3/addressProof.jpg')).toBeNull();
  });
});
