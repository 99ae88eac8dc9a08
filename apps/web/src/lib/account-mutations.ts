import type { z } from 'zod';
import type { QueryKey } from '@tanstack/react-query';
import type {
  CityDealer,
  CreateAccountBody,
  Franchise,
  UpdateCityDealerBody,
  UpdateFranchiseBody,
  createAccountResponseSchema,
} from '@bmet/shared/schemas/account';
import { apiRequest } from './api-client';
import { useInvalidatingMutation } from './invalidating-mutation';

/**
 * The staff accounts that admins and city dealers manage, by the spec's path of each: both are
 * created at `<path>/create` and edited at `<path>/:id`, and differ in what an edit may change.
 */
type AccountKinds = {
  '/city_dealer': { changes: UpdateCityDealerBody; account: CityDealer };
  '/franchise': { changes: UpdateFranchiseBody; account: Franchise };
};
type AccountPath = keyof AccountKinds;

/** Creates an account of the kind at `path`; the queries under `queryKey` load again. */
export function useCreateAccount(path: AccountPath, queryKey: QueryKey) {
  return useInvalidatingMutation(queryKey, (body: CreateAccountBody) =>
    apiRequest<typeof createAccountResponseSchema>('POST', `${path}/create`, { body }).then((r) => r.data),
  );
}

/** Edits one account and answers it as its list shows it; the queries under `queryKey` load again. */
export function useUpdateAccount<Path extends AccountPath>(path: Path, queryKey: QueryKey) {
  type Kind = AccountKinds[Path];
  return useInvalidatingMutation(queryKey, ({ id, changes }: { id: string; changes: Kind['changes'] }) =>
    apiRequest<z.ZodType<{ data: Kind['account'] }>>('PATCH', `${path}/${id}`, { body: changes }).then(
      (r) => r.data,
    ),
  );
}
