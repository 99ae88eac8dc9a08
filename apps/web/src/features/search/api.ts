import { useQuery } from '@tanstack/react-query';
import type { searchResponseSchema } from '@bmet/shared/schemas/search';
import { apiRequest } from '../../lib/api-client';

/**
 * The header search's matches for `q` (null: nothing to ask yet), with the text they answer. While
 * the next answer comes, the last one stays shown, so that the results do not blink at every
 * pause in typing.
 */
export function useSearchMatches(q: string | null) {
  return useQuery({
    queryKey: ['search', q],
    queryFn: ({ signal }) =>
      apiRequest<typeof searchResponseSchema>('GET', `/search?${new URLSearchParams({ q: q! }).toString()}`, {
        signal,
      }).then((answer) => ({ q: q!, results: answer.data })),
    enabled: q !== null,
    placeholderData: (previous) => previous,
  });
}
