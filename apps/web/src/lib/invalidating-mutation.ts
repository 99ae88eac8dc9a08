import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';

/**
 * A change on the server after which the queries under `queryKey` load again, so that every list
 * and record showing what changed shows it; the mutation settles once they are asked for again.
 */
export function useInvalidatingMutation<Variables, Answer>(
  queryKey: QueryKey,
  mutationFn: (variables: Variables) => Promise<Answer>,
) {
  const client = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => client.invalidateQueries({ queryKey }) });
}
