import { TOKEN_TTL_MS } from '@parley/domain/constants';
import { type Role, sortRoles } from '@parley/domain/roles';
import { sql } from 'kysely';
import { compiledOnce } from '../../db/compiled-once';
import type { Db } from '../../db/database';
import type { TokenKind } from '../../db/schema';
import { hashToken, newToken } from '../../lib/tokens';

/** Issues a token of a kind and returns the raw value (only its hash is kept). */
export async function issueToken(
  db: Db,
  input: { userId: number; schoolId: number; kind: TokenKind; role?: Role },
): Promise<string> {
  const { token, hash } = newToken();
  await db
    .insertInto('auth_tokens')
    .values({
      token_hash: hash,
      user_id: input.userId,
      school_id: input.schoolId,
      kind: input.kind,
      role: input.role ?? null,
      expires_at: new Date(Date.now() + TOKEN_TTL_MS[input.kind]),
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
      user_id: userId,
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

/** Reads a live token without using it up (an invitation page shows who it is for before the password). */
export async function findLiveToken(db: Db, token: string, kind: TokenKind) {
  return db
    .selectFrom('auth_tokens')
    .select(['id', 'user_id', 'school_id', 'role'])
    .where('token_hash', '=', hashToken(token))
    .where('kind', '=', kind)
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst();
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

/** Every API request runs it: compiled once. */
const sessionQuery = compiledOnce(
  (db: Db, tokenHash: string) =>
    db
      .selectFrom('auth_tokens as t')
      .innerJoin('users as u', 'u.id', 't.user_id')
      .select([
        'u.id as userId',
        'u.school_id as schoolId',
        sql<Role[]>`array(select r.role from user_roles r where r.user_id = u.id)`.as('roles'),
      ])
      .where('t.token_hash', '=', tokenHash)
      .where('t.kind', '=', 'access')
      .where('t.used_at', 'is', null)
      .where('t.expires_at', '>', sql<Date>`now()`)
      .where('u.status', '=', 1),
  ['\u0000token-hash'],
);

/**
 * The session behind a bearer token, with the user's roles, in one query (every API request runs it):
 * live token, active user. A disabled user's tokens stop at once.
 */
export async function findSession(db: Db, token: string) {
  const [found] = await sessionQuery(db, hashToken(token));
  return found && { ...found, roles: sortRoles(found.roles) };
}

/** Ends every session of the user but the one making the request (a password change keeps you in). */
export async function revokeOtherAccessTokens(db: Db, userId: number, keepHash: string): Promise<void> {
  await db
    .updateTable('auth_tokens')
    .set({ used_at: sql`now()` })
    .where('user_id', '=', userId)
    .where('kind', '=', 'access')
    .where('used_at', 'is', null)
    .where('token_hash', '<>', keepHash)
    .execute();
}
