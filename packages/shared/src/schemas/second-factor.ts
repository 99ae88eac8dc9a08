import { z } from 'zod';
import { m } from '../paraglide/messages.js';
import { emailSchema, envelope, roleSchema } from './common';
import { signInResponseSchema } from './auth';

/** How a signed-in-by-password account may prove the second factor, or `enrol` when it must first set one up. */
export const SECOND_FACTOR_METHODS = ['totp', 'passkey', 'recovery', 'enrol'] as const;
export type SecondFactorMethod = (typeof SECOND_FACTOR_METHODS)[number];

/** What a right password answers when a second step follows: never an ID token, never a 401. */
export const secondFactorStepSchema = z.object({
  secondFactor: z.object({
    /** Names this sign-in for the second step (single-use, a few minutes). */
    challenge: z.string(),
    methods: z.array(z.enum(SECOND_FACTOR_METHODS)),
  }),
});
export type SecondFactorStep = z.infer<typeof secondFactorStepSchema>;

/** POST /api/auth/sign-in: either the ID token (no second factor) or the second step. */
export const signInStepResponseSchema = z.object({
  data: z.union([signInResponseSchema.shape.data, secondFactorStepSchema]),
});
export type SignInStepResponse = z.infer<typeof signInStepResponseSchema>;

/** A challenge handed out by the server: base64url, nothing else. */
export const challengeSchema = z
  .string()
  .max(200)
  .regex(/^[A-Za-z0-9_-]+$/, { error: () => m.secondFactorSignInAgain() });

/** Six digits from an authenticator app; spaces a user types are dropped. */
export const totpCodeSchema = z
  .string()
  .max(20)
  .transform((code) => code.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, { error: () => m.secondFactorEnterCode() }));

/** A recovery code as printed (groups of letters and digits); case, spaces and dashes do not matter. */
export const recoveryCodeSchema = z
  .string()
  .max(40)
  .transform((code) => code.replace(/[\s-]+/g, '').toLowerCase())
  .pipe(z.string().regex(/^[a-z0-9]{10}$/, { error: () => m.secondFactorEnterRecoveryCode() }));

/**
 * A WebAuthn response as @simplewebauthn/browser hands it over (base64url fields); the library on
 * the server checks everything inside it.
 */
const base64url = z
  .string()
  .max(16_384)
  .regex(/^[A-Za-z0-9_-]*={0,2}$/);
export const passkeyAssertionSchema = z.object({
  id: base64url,
  rawId: base64url,
  type: z.literal('public-key'),
  authenticatorAttachment: z.string().max(40).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  response: z.object({
    clientDataJSON: base64url,
    authenticatorData: base64url,
    signature: base64url,
    userHandle: base64url.optional(),
  }),
});
export type PasskeyAssertion = z.input<typeof passkeyAssertionSchema>;

export const passkeyAttestationSchema = z.object({
  id: base64url,
  rawId: base64url,
  type: z.literal('public-key'),
  authenticatorAttachment: z.string().max(40).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  response: z.object({
    clientDataJSON: base64url,
    attestationObject: base64url,
    authenticatorData: base64url.optional(),
    transports: z.array(z.string().max(40)).max(10).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: base64url.optional(),
  }),
});
export type PasskeyAttestation = z.input<typeof passkeyAttestationSchema>;

/** POST /api/auth/sign-in/second-factor: the challenge and exactly one proof. */
export const secondFactorSignInBodySchema = z
  .object({
    challenge: challengeSchema,
    code: totpCodeSchema.optional(),
    recoveryCode: recoveryCodeSchema.optional(),
    passkey: passkeyAssertionSchema.optional(),
    /** Remember this browser for 30 days: no second step here until then. */
    remember: z.boolean().default(false),
  })
  .refine((body) => [body.code, body.recoveryCode, body.passkey].filter(Boolean).length === 1, {
    error: () => m.secondFactorEnterCode(),
    path: ['code'],
  });
export type SecondFactorSignInBody = z.input<typeof secondFactorSignInBodySchema>;

/** POST /api/auth/passkey/options: for the second step (with its challenge) or a sign-in by passkey alone. */
export const passkeyOptionsBodySchema = z.object({ challenge: challengeSchema.optional() });
export const passkeyOptionsResponseSchema = envelope(
  z.object({
    challenge: z.string(),
    /** PublicKeyCredentialRequestOptionsJSON, for @simplewebauthn/browser's startAuthentication. */
    options: z.record(z.string(), z.unknown()),
  }),
);

/** POST /api/auth/sign-in/passkey: a passkey alone, on the tab of its role. */
export const passkeySignInBodySchema = z.object({
  challenge: challengeSchema,
  role: roleSchema,
  passkey: passkeyAssertionSchema,
  remember: z.boolean().default(false),
});
export type PasskeySignInBody = z.input<typeof passkeySignInBodySchema>;

/** Enrolment, by a signed-in user (bearer token) or during sign-in (the challenge of `methods: ["enrol"]`). */
export const enrolBodySchema = z.object({ challenge: challengeSchema.optional() });
export type EnrolBody = z.input<typeof enrolBodySchema>;

export const totpEnrolmentResponseSchema = envelope(
  z.object({
    /** Base32, for typing into an app that cannot scan. */
    secret: z.string(),
    /** otpauth://totp/... for the QR code. */
    uri: z.string(),
  }),
);

export const totpConfirmBodySchema = z.object({
  code: totpCodeSchema,
  challenge: challengeSchema.optional(),
  remember: z.boolean().default(false),
});
export type TotpConfirmBody = z.input<typeof totpConfirmBodySchema>;

/**
 * The end of an enrolment: the recovery codes when this was the account's first factor (shown
 * once), and, when enrolled during sign-in, the session that sign-in opens.
 */
export const enrolmentDoneResponseSchema = envelope(
  z.object({
    recoveryCodes: z.array(z.string()).nullable(),
    signIn: signInResponseSchema.shape.data.nullable(),
  }),
);
export type EnrolmentDone = z.infer<typeof enrolmentDoneResponseSchema>['data'];

export const passkeyRegistrationOptionsResponseSchema = envelope(
  z.object({
    challenge: z.string(),
    /** PublicKeyCredentialCreationOptionsJSON, for @simplewebauthn/browser's startRegistration. */
    options: z.record(z.string(), z.unknown()),
  }),
);

export const passkeyRegisterBodySchema = z.object({
  challenge: challengeSchema,
  passkey: passkeyAttestationSchema,
  name: z.string().trim().max(60).optional(),
  remember: z.boolean().default(false),
});
export type PasskeyRegisterBody = z.input<typeof passkeyRegisterBodySchema>;

export const passkeySummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type PasskeySummary = z.infer<typeof passkeySummarySchema>;

/** GET /api/auth/second-factor: what the signed-in user has set up. */
export const secondFactorStatusResponseSchema = envelope(
  z.object({
    totp: z.boolean(),
    passkeys: z.array(passkeySummarySchema),
    recoveryCodesLeft: z.number().int(),
    /** The operator requires a second factor of this role (REQUIRE_SECOND_FACTOR). */
    required: z.boolean(),
  }),
);
export type SecondFactorStatus = z.infer<typeof secondFactorStatusResponseSchema>['data'];

export const recoveryCodesResponseSchema = envelope(z.object({ recoveryCodes: z.array(z.string()) }));

/** POST /api/admin/reset-second-factor: an admin clears another account's second factor. */
export const resetSecondFactorBodySchema = z.object({ email: emailSchema });
export type ResetSecondFactorBody = z.input<typeof resetSecondFactorBodySchema>;
