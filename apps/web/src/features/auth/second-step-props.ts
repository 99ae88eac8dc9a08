import { m } from '@bmet/shared/paraglide/messages';
import type { ApiError } from '../../lib/api-client';
import type { SecondFactorChallenge, SignedIn } from '../../lib/second-factor';

export type SecondStepProps = {
  step: SecondFactorChallenge;
  /** What came before: a right password, or a new one from a reset link. */
  after: 'password' | 'reset';
  headingOrder: 2 | 3;
  onSignedIn: (data: SignedIn) => void;
  /** Back to the password: asked for, or the sign-in ended (expired, disabled), with its message. */
  onRestart: (message?: string) => void;
};

/** Whether a failure ends this sign-in: its challenge expired or was used up, or the account was disabled. */
export function endsTheSignIn(error: ApiError): boolean {
  return (
    error.message === m.secondFactorSignInAgain() ||
    error.status === 403 ||
    Boolean(error.body.fieldErrors?.challenge)
  );
}
