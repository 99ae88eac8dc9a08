import type { Config } from '../config';
import { createLocalObjectStore, createS3ObjectStore, type ObjectStore } from './object-store';

/** The object store the configuration names. */
export function createObjectStore(config: Config['objectStore']): ObjectStore {
  if (config.kind === 'local') return createLocalObjectStore(config.root);
  const { kind: _kind, ...options } = config;
  return createS3ObjectStore(options);
}
