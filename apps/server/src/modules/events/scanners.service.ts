import { EVENT_TEXT } from '@parley/domain/events';
import { SERVER_TEXT } from '@parley/domain/messages';
import type { Role } from '@parley/domain/roles';
import type { AppContext } from '../../context';
import { notFound, unprocessable } from '../../lib/http-error';
import * as repo from './events.repository';
import { requireEvent } from './events.service';

// Who may scan tickets at an event's door (decision 013): admins, teachers and students of the school.

const SCANNER_ROLES: Role[] = ['admin', 'teacher', 'student'];

export async function setScanners(ctx: AppContext, schoolId: number, eventId: number, userIds: number[]) {
  return ctx.db.transaction().execute(async (trx) => {
    const event = await repo.lockEvent(trx, schoolId, eventId);
    if (!event) throw notFound(EVENT_TEXT.notFound);
    const ids = [...new Set(userIds)];
    const known = new Set(
      (await repo.peopleWithRoles(trx, schoolId, SCANNER_ROLES, { ids })).map((p) => p.id),
    );
    const unknown = ids.filter((id) => !known.has(id));
    if (unknown.length) {
      throw unprocessable(SERVER_TEXT.invalidInput, {
        canScanUserIds: [`${EVENT_TEXT.unknownScanner}: ${unknown.join(', ')}`],
      });
    }
    await repo.clearScanners(trx, schoolId, eventId);
    await repo.addMembers(trx, 'event_scanners', schoolId, eventId, ids);
    const scanners = await repo.listScanners(trx, schoolId, eventId);
    return { canScanUserIds: scanners.map((scanner) => scanner.id), message: EVENT_TEXT.scannersSaved };
  });
}

export async function removeScanner(ctx: AppContext, schoolId: number, eventId: number, userId: number) {
  await requireEvent(ctx.db, schoolId, eventId);
  if (!(await repo.removeMember(ctx.db, 'event_scanners', schoolId, eventId, userId))) {
    throw notFound(SERVER_TEXT.notFound);
  }
  const scanners = await repo.listScanners(ctx.db, schoolId, eventId);
  return { canScanUserIds: scanners.map((scanner) => scanner.id), message: EVENT_TEXT.scannerRemoved };
}
