import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, normalize, sep } from 'node:path';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import type { Config } from '../config';

/** Where document images live: a local folder by default, an S3-compatible store in production. */
export type ObjectStore = {
  put(key: string, body: Uint8Array, contentType: string): Promise<void>;
  get(key: string): Promise<{ body: Uint8Array; contentType: string } | null>;
  delete(key: string): Promise<void>;
};

const CONTENT_TYPES: Record<string, string> = { jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png' };

/** The ending of an image being written to a local store, before it is renamed into place. */
export const PARTIAL_OBJECT = /\.[0-9a-f-]{36}\.partial$/;

/** A folder on disk; keys are relative paths and can never escape it. */
export function createLocalObjectStore(root: string): ObjectStore {
  const pathOf = (key: string) => {
    const path = normalize(join(root, key));
    if (!path.startsWith(normalize(root) + sep)) throw new Error(`Invalid object key: ${key}`);
    return path;
  };
  return {
    async put(key, body) {
      const path = pathOf(key);
      // Private to the server's user, whatever the umask: the images are drivers' identity papers.
      await mkdir(dirname(path), { recursive: true, mode: 0o700 });
      // Written beside, then renamed into place: a reader (a request, a backup copying the folder)
      // finds the previous image or the new one, never half of one.
      const partial = `${path}.${randomUUID()}.partial`;
      try {
        await writeFile(partial, body, { mode: 0o600, flag: 'wx' });
        await rename(partial, path);
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
    },
    async get(key) {
      try {
        const body = await readFile(pathOf(key));
        const extension = key.split('.').pop()?.toLowerCase() ?? '';
        return { body, contentType: CONTENT_TYPES[extension] ?? 'application/octet-stream' };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
  };
}

export type S3ObjectStoreOptions = Omit<Extract<Config['objectStore'], { kind: 's3' }>, 'kind'>;

/**
 * The S3 client for a bucket on AWS or any S3-compatible store (MinIO, Ceph, R2...): those usually
 * need their endpoint and path-style addressing. Without keys the SDK's usual chain applies
 * (environment, shared files, instance role).
 */
export function createS3Client(options: S3ObjectStoreOptions, overrides: Partial<S3ClientConfig> = {}) {
  if (Boolean(options.accessKeyId) !== Boolean(options.secretAccessKey)) {
    throw new Error('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together.');
  }
  return new S3Client({
    region: options.region,
    endpoint: options.endpoint,
    forcePathStyle: options.forcePathStyle,
    credentials:
      options.accessKeyId && options.secretAccessKey
        ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
        : undefined,
    ...overrides,
  });
}

/** An S3 bucket; objects are private and only ever served through the API. */
export function createS3ObjectStore(
  options: S3ObjectStoreOptions,
  client: S3Client = createS3Client(options),
): ObjectStore {
  const Bucket = options.bucket;
  return {
    async put(key, body, contentType) {
      await client.send(new PutObjectCommand({ Bucket, Key: key, Body: body, ContentType: contentType }));
    },
    async get(key) {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket, Key: key }));
        if (!object.Body) return null;
        const body = await object.Body.transformToByteArray();
        const extension = key.split('.').pop()?.toLowerCase() ?? '';
        return {
          body,
          contentType: object.ContentType ?? CONTENT_TYPES[extension] ?? 'application/octet-stream',
        };
      } catch (error) {
        if (
          error instanceof S3ServiceException &&
          (error.name === 'NoSuchKey' || error.$metadata.httpStatusCode === 404)
        ) {
          return null;
        }
        throw error;
      }
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },
  };
}

/** The object key of a driver's document image, as the driver app laid them out. */
export const documentObjectKey = (driverId: string, documentKey: string, extension = 'jpg') =>
  `images/${driverId}/${documentKey}.${extension}`;
