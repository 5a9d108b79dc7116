import { SERVER_TEXT } from '@parley/domain/messages';
import { describeUserAgent } from '@parley/domain/user-agent';
import type { AppContext } from '../../context';
import { notFound } from '../../lib/http-error';
import { hashToken } from '../../lib/tokens';
import type { Session } from '../../plugins/auth';
import { endSession, listSessions, revokeOtherAccessTokens } from '../tokens/tokens.repository';

// One's own signed-in sessions (decision 015): see them, end one, end all but this one. Ending a session
// spends its token, so its next request answers 401 { action: "logout" }.

export async function mySessions(ctx: AppContext, session: Session) {
  const rows = await listSessions(ctx.db, session, hashToken(session.token));
  return {
    items: rows.map((row) => ({
      id: row.id,
      device: describeUserAgent(row.user_agent),
      userAgent: row.user_agent,
      ip: row.ip,
      signedInAt: new Date(row.created_at).toISOString(),
      lastActiveAt: new Date(row.last_active_at).toISOString(),
      current: row.current,
    })),
  };
}

/** Another person's session, an ended one or no such id: 404 alike. */
export async function endMySession(ctx: AppContext, session: Session, id: number) {
  if (!(await endSession(ctx.db, session, id))) throw notFound(SERVER_TEXT.notFound);
  return { message: SERVER_TEXT.sessionEnded, ended: 1 };
}

export async function endOtherSessions(ctx: AppContext, session: Session) {
  const ended = await revokeOtherAccessTokens(ctx.db, session.userId, hashToken(session.token));
  return { message: SERVER_TEXT.otherSessionsEnded(ended), ended };
}
