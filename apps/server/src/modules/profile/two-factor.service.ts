import { randomBytes } from 'node:crypto';
import { SERVER_TEXT } from '@parley/domain/messages';
import { formatLocalDate } from '@parley/domain/time-zone';
import {
  type ConfirmTwoFactorRequest,
  normaliseCode,
  type ProofRequest,
  RECOVERY_CODE_COUNT,
  RECOVERY_CODE_LENGTH,
  TOTP_PATTERN,
} from '@parley/domain/two-factor';
import type { AppContext } from '../../context';
import type { Db } from '../../db/database';
import { conflict, notFound, unprocessable } from '../../lib/http-error';
import { verifyPassword } from '../../lib/passwords';
import { admitSecondFactor, loginFailed, secondFactorSucceeded } from '../../lib/rate-limit';
import { open, seal } from '../../lib/secret-box';
import { hashToken } from '../../lib/tokens';
import { newTotpSecret, totpStep, totpUri } from '../../lib/totp';
import { findUserById } from '../users/users.repository';
import {
  countRecoveryCodesLeft,
  enableTwoFactor,
  findTwoFactor,
  replaceRecoveryCodes,
  savePendingSecret,
  turnOffTwoFactor,
  useRecoveryCode,
  useStep,
} from './two-factor.repository';

// Two-factor sign-in (TOTP with recovery codes) of one's own account (decision 015). Admins may turn it
// on; whoever has it may renew the recovery codes or turn it off with a current code or the password.

type Owner = { userId: number; schoolId: number };
type Caller = Owner & { roles: readonly string[] };

const sealContext = (userId: number) => `two-factor:${userId}`;
const wrongCode = (field = 'code') =>
  unprocessable(SERVER_TEXT.secondFactorWrong, { [field]: [SERVER_TEXT.secondFactorWrong] });

export async function status(ctx: AppContext, caller: Caller) {
  const row = await findTwoFactor(ctx.db, caller);
  const enabled = Boolean(row?.enabled_at);
  return {
    available: caller.roles.includes('admin'),
    enabled,
    enabledAt: row?.enabled_at ? new Date(row.enabled_at).toISOString() : null,
    enabledAtLabel: row?.enabled_at ? formatLocalDate(new Date(row.enabled_at), row.timezone) : null,
    recoveryCodesLeft: enabled ? await countRecoveryCodesLeft(ctx.db, caller) : 0,
  };
}

/** A new pending secret: its otpauth:// URI (for the QR code) and the secret itself (typed by hand). */
export async function start(ctx: AppContext, caller: Owner) {
  const user = await findUserById(ctx.db, caller.userId);
  if (!user) throw notFound(SERVER_TEXT.notFound);
  const secret = newTotpSecret();
  const saved = await savePendingSecret(
    ctx.db,
    caller,
    seal(ctx.config.dataEncryptionKey, secret, sealContext(caller.userId)),
  );
  if (!saved) throw conflict(SERVER_TEXT.twoFactorAlreadyOn);
  return { secret, otpauthUri: totpUri({ issuer: ctx.config.appName, account: user.email, secret }) };
}

/** A current code from the app proves it holds the secret: on, with recovery codes shown this once. */
export async function confirm(ctx: AppContext, caller: Owner, body: ConfirmTwoFactorRequest, ip: string) {
  const row = await findTwoFactor(ctx.db, caller);
  if (!row) throw conflict(SERVER_TEXT.twoFactorNotStarted);
  if (row.enabled_at) throw conflict(SERVER_TEXT.twoFactorAlreadyOn);
  await admitSecondFactor(ctx, ip, caller.userId);
  const secret = open(ctx.config.dataEncryptionKey, row.secret, sealContext(caller.userId));
  const step = await totpStep(secret, normaliseCode(body.code), null);
  if (step === null) {
    await loginFailed(ctx, ip);
    throw wrongCode();
  }
  const codes = newRecoveryCodes();
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await enableTwoFactor(trx, caller, step))) throw conflict(SERVER_TEXT.twoFactorNotStarted);
    await replaceRecoveryCodes(trx, caller, codes.map(hashRecoveryCode));
  });
  await secondFactorSucceeded(ctx, caller.userId);
  return { message: SERVER_TEXT.twoFactorOn, recoveryCodes: codes };
}

export async function renewRecoveryCodes(ctx: AppContext, caller: Owner, proof: ProofRequest, ip: string) {
  await requireProof(ctx, caller, proof, ip);
  const codes = newRecoveryCodes();
  await replaceRecoveryCodes(ctx.db, caller, codes.map(hashRecoveryCode));
  return { message: SERVER_TEXT.recoveryCodesRenewed, recoveryCodes: codes };
}

export async function turnOff(ctx: AppContext, caller: Owner, proof: ProofRequest, ip: string) {
  await requireProof(ctx, caller, proof, ip);
  await ctx.db.transaction().execute((trx) => turnOffTwoFactor(trx, caller));
  return { message: SERVER_TEXT.twoFactorOff };
}

/** A current TOTP code (not one used before) or the password; throttled like a second factor. */
async function requireProof(ctx: AppContext, caller: Owner, proof: ProofRequest, ip: string) {
  const row = await findTwoFactor(ctx.db, caller);
  if (!row?.enabled_at) throw conflict(SERVER_TEXT.twoFactorNotOn);
  await admitSecondFactor(ctx, ip, caller.userId);
  let proven = false;
  if (proof.code !== undefined) {
    proven = (await useTotp(ctx, ctx.db, caller, normaliseCode(proof.code))) !== null;
  } else if (proof.password !== undefined) {
    const user = await findUserById(ctx.db, caller.userId);
    proven = await verifyPassword(user?.password_hash ?? null, proof.password);
  }
  if (!proven) {
    await loginFailed(ctx, ip);
    if (proof.code !== undefined) throw wrongCode();
    throw unprocessable(SERVER_TEXT.wrongPassword, { password: [SERVER_TEXT.wrongPassword] });
  }
  await secondFactorSucceeded(ctx, caller.userId);
}

/** A TOTP code of a user with two-factor sign-in on, spent: its time step, or null (wrong or replayed). */
async function useTotp(ctx: AppContext, db: Db, owner: Owner, code: string): Promise<number | null> {
  const row = await findTwoFactor(db, owner);
  if (!row?.enabled_at) return null;
  const secret = open(ctx.config.dataEncryptionKey, row.secret, sealContext(owner.userId));
  const step = await totpStep(secret, code, row.last_step);
  // The conditional update refuses a step at or before the last one used, even from a racing request.
  return step !== null && (await useStep(db, owner, step)) ? step : null;
}

export type SecondFactorOutcome = { kind: 'totp' } | { kind: 'recovery'; left: number } | null;

/**
 * The second step of a login: a 6-digit code is a TOTP code, anything else a recovery code. Spends
 * what it accepts (within db, the caller's transaction); null when neither is right.
 */
export async function useSecondFactor(
  ctx: AppContext,
  db: Db,
  owner: Owner,
  rawCode: string,
): Promise<SecondFactorOutcome> {
  const code = normaliseCode(rawCode);
  if (TOTP_PATTERN.test(code))
    return (await useTotp(ctx, db, owner, code)) === null ? null : { kind: 'totp' };
  if (code.length !== RECOVERY_CODE_LENGTH) return null;
  if (!(await useRecoveryCode(db, owner, hashRecoveryCode(code)))) return null;
  return { kind: 'recovery', left: await countRecoveryCodesLeft(db, owner) };
}

// Recovery codes: 12 characters of an alphabet without look-alikes (0/o, 1/l), 60 random bits each,
// shown as "abcd-efgh-jkmn"; typed in any case, with or without the dashes.
const ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';

function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = [...randomBytes(RECOVERY_CODE_LENGTH)].map((byte) => ALPHABET[byte & 31]).join('');
    return chars.match(/.{4}/g)?.join('-') ?? chars;
  });
}

/** Kept as SHA-256 of the normalised code: 60 random bits need no slow hash, and a leak alone opens nothing. */
const hashRecoveryCode = (code: string) => hashToken(normaliseCode(code));
