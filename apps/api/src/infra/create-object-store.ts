import type { Config } from '../config';
import { createLocalObjectStore, type ObjectStore } from './object-store';

/** The object store the configuration names. */
export function createObjectStore(config: Config['objectStore']): ObjectStore {
  if (config.kind === 'local') return createLocalObjectStore(config.root);
  throw new Error('The S3 object store is not available in this version.');
}
