import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';

/**
 * A list's search box text, and the trimmed text to query once typing pauses (one request per
 * pause, not per key); `initial` is the text a link opened the list with.
 */
export function useSearch(delay = 150, initial = '') {
  const [search, setSearch] = useState(initial);
  const [q] = useDebouncedValue(search.trim(), delay);
  return { search, setSearch, q };
}
