import { SERVER_TEXT } from '@parley/domain/messages';
import type { AppContext } from '../../context';
import { pendingMigrations } from '../../db/migrate';
import { serviceUnavailable } from '../../lib/http-error';

/**
 * Ready to serve: the database answers and has run every migration this build has. While it is still
 * opening and migrating the answer is 503 at once: asking it would wait behind the migrations.
 */
export async function readiness(ctx: AppContext) {
  if (!ctx.databaseStarted()) throw serviceUnavailable(SERVER_TEXT.unavailable);
  const pending = await pendingMigrations(ctx.db);
  if (pending.length > 0) throw serviceUnavailable(SERVER_TEXT.unavailable);
  return { status: 'ready' as const };
}
