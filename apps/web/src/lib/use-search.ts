import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';

/**
 * A search box's text, and the trimmed text to query once typing pauses (one request per pause,
 * not per key). The lists keep theirs in the address instead (use-list-params.ts).
 */
export function useSearch(delay = 150) {
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), delay);
  return { search, setSearch, q };
}
