import { loginResponse } from './auth';
import { tokenField } from './fields';
import { VALIDATION } from './messages';
import { z } from './zod';

// The wire contract of two-factor sign-in (TOTP with recovery codes, decision 015).

/** How many one-time recovery codes an enrolment or a renewal gives. */
export const RECOVERY_CODE_COUNT = 10;
/** Characters of a recovery code (shown in groups of four: "abcd-efgh-jkmn"). */
export const RECOVERY_CODE_LENGTH = 12;
export const TOTP_PATTERN = /^\d{6}$/;

/** A code as typed: spaces and dashes dropped, lower case (recovery codes are shown in lower case). */
export const normaliseCode = (code: string) => code.replace(/[\s-]/g, '').toLowerCase();

/** A code that came with the request: a 6-digit TOTP or a recovery code; the server tells which. */
const codeField = z
  .string({ error: VALIDATION.required })
  .trim()
  .min(1, { error: VALIDATION.required, abort: true })
  .max(40, VALIDATION.totpFormat);

/** Only a 6-digit code from the authenticator app (enrolment proves the app has the secret). */
const totpField = z
  .string({ error: VALIDATION.required })
  .trim()
  .min(1, { error: VALIDATION.required, abort: true })
  .transform(normaliseCode)
  .pipe(z.string().regex(TOTP_PATTERN, VALIDATION.totpFormat));

/** Second step of a login: the challenge from the first step and a TOTP or a recovery code. */
export const secondFactorRequest = z.strictObject({ challenge: tokenField, code: codeField });
export type SecondFactorRequest = z.input<typeof secondFactorRequest>;

/** The first step's answer for an account with two-factor sign-in: no session yet, a challenge. */
export const secondFactorChallenge = z.object({
  secondFactorRequired: z.literal(true),
  challenge: z.string(),
  message: z.string(),
});
export type SecondFactorChallenge = z.infer<typeof secondFactorChallenge>;

/** POST user/login answers a session, or (two-factor sign-in on) a challenge. */
export const loginOrChallengeResponse = z.union([loginResponse, secondFactorChallenge]);
export type LoginOrChallenge = z.infer<typeof loginOrChallengeResponse>;

export const confirmTwoFactorRequest = z.strictObject({ code: totpField });
export type ConfirmTwoFactorRequest = z.input<typeof confirmTwoFactorRequest>;

/** Turning off or renewing the recovery codes: a current TOTP code or the password (one is enough). */
export const proofRequest = z
  .strictObject({
    code: totpField.optional(),
    password: z.string({ error: VALIDATION.required }).min(1, VALIDATION.required).max(200).optional(),
  })
  .refine((value) => value.code !== undefined || value.password !== undefined, {
    path: ['code'],
    message: VALIDATION.required,
  });
export type ProofRequest = z.input<typeof proofRequest>;

export const twoFactorStatus = z.object({
  /** Whether this account may turn it on (admins). */
  available: z.boolean(),
  enabled: z.boolean(),
  enabledAt: z.string().nullable(),
  /** "Tue 4 Mar 2031": the day it was turned on, on the school's clock (issue 36). */
  enabledAtLabel: z.string().nullable(),
  recoveryCodesLeft: z.number(),
});
export type TwoFactorStatus = z.infer<typeof twoFactorStatus>;

export const twoFactorEnrolment = z.object({
  /** The otpauth:// URI the QR code carries. */
  otpauthUri: z.string(),
  /** The same secret in base32, for typing into an app by hand. */
  secret: z.string(),
});
export type TwoFactorEnrolment = z.infer<typeof twoFactorEnrolment>;

export const recoveryCodesResponse = z.object({
  message: z.string(),
  /** Shown once: only their hashes are kept. */
  recoveryCodes: z.array(z.string()),
});
export type RecoveryCodesResponse = z.infer<typeof recoveryCodesResponse>;
