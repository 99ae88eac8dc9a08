import { useCallback, useRef, useState } from 'react';
import type { z } from 'zod';
import { m } from '@bmet/shared/paraglide/messages';
import type { SignInBody } from '@bmet/shared/schemas/auth';
import type { signInResponseSchema } from '@bmet/shared/schemas/auth';
import { ApiError, apiRequest } from '../../lib/api-client';

type SignedIn = z.output<typeof signInResponseSchema>['data'];

/**
 * Signs in. A plain hook rather than a query mutation: the sign-in screen is the first a phone
 * loads, and it goes without the data layer (see lib/query-client.tsx).
 */
export function useSignIn() {
  const [state, setState] = useState<{ isPending: boolean; error: ApiError | null }>({
    isPending: false,
    error: null,
  });
  // Only the latest attempt may answer: one made before a reset (another tab chosen) is ignored.
  const attempt = useRef(0);
  const mutate = useCallback((body: SignInBody, { onSuccess }: { onSuccess: (data: SignedIn) => void }) => {
    const mine = ++attempt.current;
    setState({ isPending: true, error: null });
    apiRequest<typeof signInResponseSchema>('POST', '/auth/sign-in', { body }).then(
      (answer) => {
        if (mine !== attempt.current) return;
        setState({ isPending: false, error: null });
        onSuccess(answer.data);
      },
      (error: unknown) => {
        if (mine !== attempt.current) return;
        const failure =
          error instanceof ApiError ? error : new ApiError(0, { error: m.internal(), code: 'INTERNAL' });
        setState({ isPending: false, error: failure });
      },
    );
  }, []);
  const reset = useCallback(() => {
    attempt.current++;
    setState({ isPending: false, error: null });
  }, []);
  return { ...state, mutate, reset };
}
