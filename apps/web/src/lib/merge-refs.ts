import type { Ref } from 'react';
import { useMergedRef } from '@mantine/hooks';

/**
 * Stands in for @floating-ui/react's useMergeRefs in Mantine's ScrollArea (see vite.config.ts):
 * the same merged ref callback, without bringing all of floating-ui along.
 */
export function useMergeRefs<T>(refs: Array<Ref<T> | undefined>) {
  return useMergedRef<T>(...refs);
}
