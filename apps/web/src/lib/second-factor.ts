import type { z } from 'zod';
import type { Role } from '@bmet/shared/constants';
import { m } from '@bmet/shared/paraglide/messages';
import type { signInResponseSchema } from '@bmet/shared/schemas/auth';
import type {
  EnrolmentDone,
  PasskeyAssertion,
  PasskeyAttestation,
  SecondFactorSignInBody,
  SecondFactorStep,
  TotpConfirmBody,
  enrolmentDoneResponseSchema,
  passkeyOptionsResponseSchema,
  passkeyRegistrationOptionsResponseSchema,
  totpEnrolmentResponseSchema,
} from '@bmet/shared/schemas/second-factor';
import { ApiError, apiRequest } from './api-client';
import { passkeysSupported } from './passkey-support';

/**
 * The calls of the second factor that both the sign-in (its second step, enrolment a role requires)
 * and the signed-in user's own screen make. Plain functions, not query mutations: the sign-in
 * screen goes without the data layer. The WebAuthn library loads on the first passkey, never with
 * the sign-in screen.
 */

/** An answer that opens a session, as `POST /auth/sign-in` gives it. */
export type SignedIn = z.output<typeof signInResponseSchema>['data'];
/** The second step a right password (or a password reset) answers instead of a session. */
export type SecondFactorChallenge = SecondFactorStep['secondFactor'];
export type { EnrolmentDone };

/** The second step with a code, a recovery code or a passkey: answers the session. */
export function proveSecondFactor(body: SecondFactorSignInBody): Promise<SignedIn> {
  return apiRequest<typeof signInResponseSchema>('POST', '/auth/sign-in/second-factor', { body }).then(
    (r) => r.data,
  );
}

/** Asks the browser for a passkey answering the options of `POST /auth/passkey/options`. */
async function assertPasskey(challenge?: string): Promise<{ challenge: string; passkey: PasskeyAssertion }> {
  const [{ data }, { startAuthentication }] = await Promise.all([
    apiRequest<typeof passkeyOptionsResponseSchema>('POST', '/auth/passkey/options', {
      body: challenge ? { challenge } : {},
    }),
    import('@simplewebauthn/browser'),
  ]);
  const passkey = await startAuthentication({ optionsJSON: data.options as never });
  return { challenge: data.challenge, passkey: passkey as PasskeyAssertion };
}

/** The second step with a passkey of the account that typed its password. */
export async function proveWithPasskey(challenge: string, remember: boolean): Promise<SignedIn> {
  const { passkey } = await assertPasskey(challenge);
  return proveSecondFactor({ challenge, passkey, remember });
}

/** Signs in with a passkey alone, on the tab of `role` (no password). */
export async function signInWithPasskey(role: Role): Promise<SignedIn> {
  const { challenge, passkey } = await assertPasskey();
  return apiRequest<typeof signInResponseSchema>('POST', '/auth/sign-in/passkey', {
    body: { challenge, role, passkey },
  }).then((r) => r.data);
}

/**
 * Starts setting up an authenticator app: the secret and its otpauth:// address. With the
 * challenge of a sign-in that must enrol; without, for the signed-in user.
 */
export function startTotpEnrolment(challenge?: string) {
  return apiRequest<typeof totpEnrolmentResponseSchema>('POST', '/auth/second-factor/totp', {
    body: challenge ? { challenge } : {},
  }).then((r) => r.data);
}

/** Ends setting up an authenticator app with its first code. */
export function confirmTotpEnrolment(body: TotpConfirmBody): Promise<EnrolmentDone> {
  return apiRequest<typeof enrolmentDoneResponseSchema>('POST', '/auth/second-factor/totp/confirm', {
    body,
  }).then((r) => r.data);
}

/** Makes a passkey on this device (the browser asks) and keeps it for the account. */
export async function addPasskey(input: {
  challenge?: string;
  name?: string;
  remember?: boolean;
}): Promise<EnrolmentDone> {
  const [{ data }, { startRegistration }] = await Promise.all([
    apiRequest<typeof passkeyRegistrationOptionsResponseSchema>(
      'POST',
      '/auth/second-factor/passkeys/options',
      { body: input.challenge ? { challenge: input.challenge } : {} },
    ),
    import('@simplewebauthn/browser'),
  ]);
  const passkey = await startRegistration({ optionsJSON: data.options as never });
  const name = input.name?.trim();
  return apiRequest<typeof enrolmentDoneResponseSchema>('POST', '/auth/second-factor/passkeys', {
    body: {
      challenge: data.challenge,
      passkey: passkey as PasskeyAttestation,
      ...(name ? { name } : {}),
      remember: input.remember ?? false,
    },
  }).then((r) => r.data);
}

/**
 * A failure of a passkey ceremony or of its calls, for people: the server's message, or what the
 * browser's refusal means (closed, timed out, already there, not possible here).
 */
export function passkeyProblem(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  const { name, code, message } = (error ?? {}) as { name?: string; code?: string; message?: string };
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') return m.passkeyAlreadyOnDevice();
  if (name === 'NotAllowedError' || name === 'AbortError' || code === 'ERROR_CEREMONY_ABORTED') {
    return m.passkeyCancelled();
  }
  if (!passkeysSupported() || /not supported/i.test(message ?? '')) return m.passkeyUnsupported();
  return m.secondFactorPasskeyRefused();
}

/** A code as typed, without the spaces an app shows in the middle of it. */
export const cleanCode = (code: string) => code.replace(/\s+/g, '');

/** Whether a typed authenticator code has the six digits the server takes. */
export const isTotpCode = (code: string) => /^\d{6}$/.test(cleanCode(code));

/** Whether a typed recovery code has its ten letters and digits (case, spaces and dashes do not matter). */
export const isRecoveryCode = (code: string) => /^[a-z0-9]{10}$/i.test(code.replace(/[\s-]+/g, ''));
