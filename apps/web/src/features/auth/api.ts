import { useCallback, useRef, useState } from 'react';
import type { Role } from '@bmet/shared/constants';
import { m } from '@bmet/shared/paraglide/messages';
import type { SignInBody } from '@bmet/shared/schemas/auth';
import type { SignInStepResponse, signInStepResponseSchema } from '@bmet/shared/schemas/second-factor';
import { ApiError, apiRequest } from '../../lib/api-client';
import type { SignedIn } from '../../lib/second-factor';

/**
 * A call of the sign-in screen whose answer counts only while it is the latest: one made before
 * a reset (another tab chosen) is ignored. A plain hook rather than a query mutation: the sign-in
 * screen is the first a phone loads, and it goes without the data layer (see lib/query-client.tsx).
 */
function useLatestCall<Input, Answer>(call: (input: Input) => Promise<Answer>) {
  const [state, setState] = useState<{ isPending: boolean; error: ApiError | null }>({
    isPending: false,
    error: null,
  });
  const attempt = useRef(0);
  const mutate = useCallback(
    (input: Input, { onSuccess }: { onSuccess: (data: Answer) => void }) => {
      const mine = ++attempt.current;
      setState({ isPending: true, error: null });
      call(input).then(
        (answer) => {
          if (mine !== attempt.current) return;
          setState({ isPending: false, error: null });
          onSuccess(answer);
        },
        (error: unknown) => {
          if (mine !== attempt.current) return;
          const failure =
            error instanceof ApiError ? error : new ApiError(0, { error: m.internal(), code: 'INTERNAL' });
          setState({ isPending: false, error: failure });
        },
      );
    },
    [call],
  );
  const reset = useCallback(() => {
    attempt.current++;
    setState({ isPending: false, error: null });
  }, []);
  return { ...state, mutate, reset };
}

const signIn = (body: SignInBody) =>
  apiRequest<typeof signInStepResponseSchema>('POST', '/auth/sign-in', { body }).then((r) => r.data);

/** The browser's refusals (closed, timed out) become messages for people, as the server's are. */
async function signInWithPasskey(role: Role): Promise<SignedIn> {
  // The passkey code (and the WebAuthn library after it) loads only when a passkey is used.
  const passkeys = await import('../../lib/second-factor');
  return passkeys.signInWithPasskey(role).catch((error: unknown) => {
    throw error instanceof ApiError
      ? error
      : new ApiError(0, { error: passkeys.passkeyProblem(error), code: 'INTERNAL' });
  });
}

/** Signs in with a password: answers the session, or the second step the account needs. */
export function useSignIn() {
  return useLatestCall<SignInBody, SignInStepResponse['data']>(signIn);
}

/** Signs in with a passkey alone, on the tab of its role. */
export function usePasskeySignIn() {
  return useLatestCall<Role, SignedIn>(signInWithPasskey);
}
