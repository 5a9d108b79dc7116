import { TOKEN_TTL_MS } from '@parley/domain/constants';
import { type Role, sortRoles } from '@parley/domain/roles';
import { sql } from 'kysely';
import { compiledOnce } from '../../db/compiled-once';
import type { Db } from '../../db/database';
import { perDatabase } from '../../db/per-database';
import { idInSchool } from '../../db/same-school';
import type { TokenKind } from '../../db/schema';
import { asAnyApp, asSystem } from '../../db/scope';
import type { SessionClient } from '../../lib/session-client';
import { hashToken, newToken } from '../../lib/tokens';
import { sessionCacheOf } from './session-cache';
import { SessionTouches } from './session-touches';

/** Issues a token of a kind and returns the raw value (only its hash is kept). */
export async function issueToken(
  db: Db,
  input: { userId: number; schoolId: number; kind: TokenKind; role?: Role; client?: SessionClient },
): Promise<string> {
  const { token, hash } = newToken();
  await db
    .insertInto('auth_tokens')
    .values({
      token_hash: hash,
      // Only a user of the school: another school's id fails the insert.
      user_id: idInSchool('users', input.userId, input.schoolId),
      school_id: input.schoolId,
      kind: input.kind,
      role: input.role ?? null,
      expires_at: new Date(Date.now() + TOKEN_TTL_MS[input.kind]),
      ...(input.client && {
        ip: input.client.ip.slice(0, 64),
        user_agent: input.client.userAgent?.slice(0, 512) || null,
      }),
    })
    .execute();
  return token;
}

/**
 * Personal booking links of an event's invitation mails, one per person: the raw token of each (only the
 * hash is kept). Every mail renews the link; it opens that one event until it expires.
 */
export async function issueEventLinks(
  db: Db,
  input: { schoolId: number; eventId: number; userIds: number[] },
): Promise<Map<number, string>> {
  const links = new Map<number, string>();
  if (input.userIds.length === 0) return links;
  const expiresAt = new Date(Date.now() + TOKEN_TTL_MS.event);
  const rows = input.userIds.map((userId) => {
    const { token, hash } = newToken();
    links.set(userId, token);
    return {
      token_hash: hash,
      user_id: idInSchool('users', userId, input.schoolId),
      school_id: input.schoolId,
      kind: 'event' as const,
      event_id: input.eventId,
      expires_at: expiresAt,
    };
  });
  for (let i = 0; i < rows.length; i += 1000) {
    await db
      .insertInto('auth_tokens')
      .values(rows.slice(i, i + 1000))
      .execute();
  }
  return links;
}

/**
 * Personal booking links for an event's booking mails, for the people of these who have no password
 * (nothing else opens their booking from a mail): the raw token of each by user id; someone with a password
 * logs in and gets none. The insert is the check.
 */
export async function issueEventLinksWithoutPassword(
  db: Db,
  input: { schoolId: number; eventId: number; userIds: number[] },
): Promise<Map<number, string>> {
  const links = new Map<number, string>();
  const asked = [...new Set(input.userIds)].map((userId) => ({ userId, ...newToken() }));
  const expiresAt = new Date(Date.now() + TOKEN_TTL_MS.event).toISOString();
  for (let i = 0; i < asked.length; i += 1000) {
    const part = asked.slice(i, i + 1000);
    const values = sql.join(part.map((row) => sql`(${row.userId}::int, ${row.hash}::text)`));
    const { rows } = await sql<{ user_id: number }>`insert into auth_tokens
        (token_hash, user_id, school_id, kind, event_id, expires_at)
      select v.hash, u.id, u.school_id, 'event', ${input.eventId}::int, ${expiresAt}::timestamptz
      from (values ${values}) as v(user_id, hash) join users u on u.id = v.user_id
      where u.school_id = ${input.schoolId} and u.status = 1 and u.password_hash is null
      returning user_id`.execute(db);
    for (const row of rows) links.set(row.user_id, part.find((p) => p.userId === row.user_id)?.token ?? '');
  }
  return links;
}

/** Marks a single-use token used and returns it, in one conditional update: two racing uses get one win. */
export async function consumeToken(db: Db, token: string, kind: TokenKind) {
  return db
    .updateTable('auth_tokens')
    .set({ used_at: sql`now()` })
    .where('token_hash', '=', hashToken(token))
    .where('kind', '=', kind)
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .returning(['id', 'user_id', 'school_id', 'role'])
    .executeTakeFirst();
}

/** A token of a kind by its value (only its hash is kept). */
const tokenOf = (db: Db, token: string, kind: TokenKind) =>
  db
    .selectFrom('auth_tokens')
    .select(['id', 'user_id', 'school_id', 'role'])
    .where('token_hash', '=', hashToken(token))
    .where('kind', '=', kind);

/** Reads a live token without using it up (an invitation page shows who it is for before the password). */
export async function findLiveToken(db: Db, token: string, kind: TokenKind) {
  return tokenOf(db, token, kind)
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst();
}

/** A token already used (an invitation opened again after it was accepted), whether or not it has expired. */
export async function findUsedToken(db: Db, token: string, kind: TokenKind) {
  return tokenOf(db, token, kind).where('used_at', 'is not', null).executeTakeFirst();
}

/** Ends every live token of a kind for a user: logout everywhere, superseded invitations, resets. */
export async function revokeTokens(db: Db, userId: number, kinds: TokenKind[]): Promise<void> {
  await db
    .updateTable('auth_tokens')
    .set({ used_at: sql`now()` })
    .where('user_id', '=', userId)
    .where('kind', 'in', kinds)
    .where('used_at', 'is', null)
    .execute();
}

export async function revokeAccessToken(db: Db, token: string): Promise<void> {
  await db
    .updateTable('auth_tokens')
    .set({ used_at: sql`now()` })
    .where('token_hash', '=', hashToken(token))
    .where('kind', '=', 'access')
    .execute();
}

/**
 * Every API request runs it: compiled once. It reads across schools before the request's school is known,
 * through the one function that row-level security lets do so (migration 009, decision 016).
 */
const sessionQuery = compiledOnce(
  (db: Db, tokenHash: string) =>
    db
      .selectFrom(
        sql<{
          user_id: number;
          school_id: number;
          roles: Role[];
          expires_at: Date;
        }>`parley_session(${tokenHash})`.as('s'),
      )
      .select(['s.user_id as userId', 's.school_id as schoolId', 's.roles', 's.expires_at as expiresAt']),
  ['\u0000token-hash'],
);

/**
 * The session behind a bearer token, with the user's roles, in one query (every API request runs it):
 * live token, active user. A disabled user's tokens stop at once: the change's commit announces the user,
 * and every process forgets the sessions it kept for them (migration 018).
 */
export async function findSession(db: Db, token: string) {
  const tokenHash = hashToken(token);
  // Kept by the process while the database's announcements of changes are heard (session-cache.ts).
  const found = await sessionCacheOf(db).find(tokenHash, async () => {
    // Before the request knows its school: on whichever app-role connection is at hand, no scope switch.
    const [row] = await asAnyApp(() => sessionQuery(db, tokenHash));
    return row && { ...row, roles: sortRoles(row.roles) };
  });
  if (!found) return undefined;
  sessionTouchesOf(db).touch(tokenHash);
  return { userId: found.userId, schoolId: found.schoolId, roles: [...found.roles] };
}

/** Each process's marks of sessions used, written a second later in one statement (session-touches.ts). */
export const sessionTouchesOf = perDatabase(
  (db: Db) => new SessionTouches((tokenHashes) => touchSessions(db, tokenHashes)),
);

/**
 * Marks sessions as used now (session-touches.ts gathers them), across schools. Conditional: several
 * processes serving one session still write it about once a minute.
 */
async function touchSessions(db: Db, tokenHashes: string[]): Promise<void> {
  await asSystem(() =>
    db
      .updateTable('auth_tokens')
      .set({ last_used_at: sql`now()` })
      .where('token_hash', '=', sql<string>`any(${tokenHashes}::text[])`)
      .where((eb) =>
        eb.or([
          eb('last_used_at', 'is', null),
          eb('last_used_at', '<', sql<Date>`now() - interval '1 minute'`),
        ]),
      )
      .execute(),
  );
}

/** One's live sessions, the latest active first; `current` marks the one making the request. */
export function listSessions(db: Db, user: { userId: number; schoolId: number }, currentHash: string) {
  return db
    .selectFrom('auth_tokens')
    .select([
      'id',
      'ip',
      'user_agent',
      'created_at',
      sql<Date>`coalesce(last_used_at, created_at)`.as('last_active_at'),
      sql<boolean>`token_hash = ${currentHash}`.as('current'),
    ])
    .where('user_id', '=', user.userId)
    .where('school_id', '=', user.schoolId)
    .where('kind', '=', 'access')
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .orderBy(sql`coalesce(last_used_at, created_at)`, 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** Ends one live session of the user: true when it was theirs and live. */
export async function endSession(
  db: Db,
  user: { userId: number; schoolId: number },
  sessionId: number,
): Promise<boolean> {
  const ended = await db
    .updateTable('auth_tokens')
    .set({ used_at: sql`now()` })
    .where('id', '=', sessionId)
    .where('user_id', '=', user.userId)
    .where('school_id', '=', user.schoolId)
    .where('kind', '=', 'access')
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .returning('id')
    .executeTakeFirst();
  return ended !== undefined;
}

/** Ends every session of the user but the one making the request (a password change keeps you in). */
export async function revokeOtherAccessTokens(db: Db, userId: number, keepHash: string): Promise<number> {
  const result = await db
    .updateTable('auth_tokens')
    .set({ used_at: sql`now()` })
    .where('user_id', '=', userId)
    .where('kind', '=', 'access')
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .where('token_hash', '<>', keepHash)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Ends a person's live personal booking links (kind 'event'); how many there were. */
export async function revokeEventLinks(db: Db, schoolId: number, userId: number): Promise<number> {
  const result = await db
    .updateTable('auth_tokens')
    .set({ used_at: sql`now()` })
    .where('school_id', '=', schoolId)
    .where('user_id', '=', userId)
    .where('kind', '=', 'event')
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
