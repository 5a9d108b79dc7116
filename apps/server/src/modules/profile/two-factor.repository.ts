import { sql } from 'kysely';
import type { Db } from '../../db/database';

// Two-factor sign-in rows (migration 008, decision 015). Every function takes the user's school and
// filters by it; the secret arrives and leaves sealed (the service opens it).

type Owner = { userId: number; schoolId: number };

export function findTwoFactor(db: Db, owner: Owner) {
  return db
    .selectFrom('two_factor as tf')
    .innerJoin('schools as sc', 'sc.id', 'tf.school_id')
    .select(['tf.secret', 'tf.enabled_at', 'tf.last_step', 'sc.timezone'])
    .where('tf.user_id', '=', owner.userId)
    .where('tf.school_id', '=', owner.schoolId)
    .executeTakeFirst();
}

/** Whether the user has two-factor sign-in on (the login asks for a second step then). */
export async function twoFactorEnabled(db: Db, owner: Owner): Promise<boolean> {
  const row = await db
    .selectFrom('two_factor')
    .select('user_id')
    .where('user_id', '=', owner.userId)
    .where('school_id', '=', owner.schoolId)
    .where('enabled_at', 'is not', null)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Keeps a new pending secret, replacing an earlier pending one; false when two-factor sign-in is already
 * on (the row is left as it is: turning it off comes first).
 */
export async function savePendingSecret(db: Db, owner: Owner, sealedSecret: string): Promise<boolean> {
  const row = await db
    .insertInto('two_factor')
    .values({ user_id: owner.userId, school_id: owner.schoolId, secret: sealedSecret })
    .onConflict((conflict) =>
      conflict
        .column('user_id')
        .doUpdateSet({ secret: sealedSecret, last_step: null })
        .where('two_factor.enabled_at', 'is', null)
        .where('two_factor.school_id', '=', owner.schoolId),
    )
    .returning('user_id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Turns a pending set-up on, with the step of the code that confirmed it; false if none was pending. */
export async function enableTwoFactor(db: Db, owner: Owner, step: number): Promise<boolean> {
  const row = await db
    .updateTable('two_factor')
    .set({ enabled_at: sql`now()`, last_step: step })
    .where('user_id', '=', owner.userId)
    .where('school_id', '=', owner.schoolId)
    .where('enabled_at', 'is', null)
    .returning('user_id')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Records a code's time step as used, only if it comes after the last one used: a code (or an older one
 * of its window) cannot be used twice, even by two requests at the same moment.
 */
export async function useStep(db: Db, owner: Owner, step: number): Promise<boolean> {
  const row = await db
    .updateTable('two_factor')
    .set({ last_step: step })
    .where('user_id', '=', owner.userId)
    .where('school_id', '=', owner.schoolId)
    .where('enabled_at', 'is not', null)
    .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
    .returning('user_id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function turnOffTwoFactor(db: Db, owner: Owner): Promise<boolean> {
  await db
    .deleteFrom('recovery_codes')
    .where('user_id', '=', owner.userId)
    .where('school_id', '=', owner.schoolId)
    .execute();
  const row = await db
    .deleteFrom('two_factor')
    .where('user_id', '=', owner.userId)
    .where('school_id', '=', owner.schoolId)
    .where('enabled_at', 'is not', null)
    .returning('user_id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Replaces every recovery code of the user (used or not) with new ones, given as hashes. */
export async function replaceRecoveryCodes(db: Db, owner: Owner, hashes: string[]): Promise<void> {
  await db
    .deleteFrom('recovery_codes')
    .where('user_id', '=', owner.userId)
    .where('school_id', '=', owner.schoolId)
    .execute();
  if (hashes.length === 0) return;
  await db
    .insertInto('recovery_codes')
    .values(hashes.map((hash) => ({ user_id: owner.userId, school_id: owner.schoolId, code_hash: hash })))
    .execute();
}

/** Spends a recovery code in one conditional update: true once, however many requests race with it. */
export async function useRecoveryCode(db: Db, owner: Owner, hash: string): Promise<boolean> {
  const row = await db
    .updateTable('recovery_codes')
    .set({ used_at: sql`now()` })
    .where('user_id', '=', owner.userId)
    .where('school_id', '=', owner.schoolId)
    .where('code_hash', '=', hash)
    .where('used_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function countRecoveryCodesLeft(db: Db, owner: Owner): Promise<number> {
  const row = await db
    .selectFrom('recovery_codes')
    .select((eb) => eb.fn.countAll<string>().as('left'))
    .where('user_id', '=', owner.userId)
    .where('school_id', '=', owner.schoolId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.left);
}
