import { SERVER_TEXT } from '@parley/domain/messages';
import type { AppContext } from '../../context';
import { pendingMigrations } from '../../db/migrate';
import { serviceUnavailable } from '../../lib/http-error';

/** Ready to serve: the database answers and has run every migration this build has. */
export async function readiness(ctx: AppContext) {
  const pending = await pendingMigrations(ctx.db);
  if (pending.length > 0) throw serviceUnavailable(SERVER_TEXT.unavailable);
  return { status: 'ready' as const };
}
