import { RECIPIENTS_PAGE_SIZE, type RecipientsQuery } from '@parley/domain/event-lists';
import { type AddRecipientsRequest, EVENT_TEXT } from '@parley/domain/events';
import { SERVER_TEXT } from '@parley/domain/messages';
import type { Role } from '@parley/domain/roles';
import type { AppContext } from '../../context';
import { notFound, unprocessable } from '../../lib/http-error';
import * as repo from './events.repository';
import { plural, requireEvent } from './events.service';

// Who an event is for (spec §4 Recipients): add by list or all parents/students (previewed, then saved),
// remove one; and the parents and students to choose from.

export async function addRecipients(
  ctx: AppContext,
  schoolId: number,
  eventId: number,
  body: AddRecipientsRequest,
  save: boolean,
) {
  return ctx.db.transaction().execute(async (trx) => {
    await requireEvent(trx, schoolId, eventId);
    const families: Role[] = ['parent', 'student'];
    let candidates: Array<{ id: number; name: string; email: string }>;
    if (body.userIds !== undefined) {
      const ids = [...new Set(body.userIds)];
      candidates = await repo.peopleWithRoles(trx, schoolId, families, { ids });
      const known = new Set(candidates.map((person) => person.id));
      const unknown = ids.filter((id) => !known.has(id));
      if (unknown.length) {
        throw unprocessable(SERVER_TEXT.invalidInput, {
          userIds: [`${EVENT_TEXT.unknownRecipient}: ${unknown.join(', ')}`],
        });
      }
    } else {
      const role: Role = body.all === 'students' ? 'student' : 'parent';
      candidates = await repo.peopleWithRoles(trx, schoolId, [role], { activeOnly: true });
    }
    const already = await repo.recipientIds(trx, schoolId, eventId);
    const toAdd = candidates.filter((person) => !already.has(person.id));
    const alreadyAdded = candidates.filter((person) => already.has(person.id));
    if (!save) {
      return {
        toAdd,
        alreadyAdded,
        added: 0,
        message: `${toAdd.length} to add, ${alreadyAdded.length} already added.`,
      };
    }
    const added = await repo.addMembers(
      trx,
      'event_recipients',
      schoolId,
      eventId,
      toAdd.map((person) => person.id),
    );
    return { toAdd, alreadyAdded, added, message: `${plural(added, 'recipient')} added.` };
  });
}

export async function removeRecipient(ctx: AppContext, schoolId: number, eventId: number, userId: number) {
  await requireEvent(ctx.db, schoolId, eventId);
  if (!(await repo.removeMember(ctx.db, 'event_recipients', schoolId, eventId, userId))) {
    throw notFound(EVENT_TEXT.recipientNotFound);
  }
  return { message: EVENT_TEXT.recipientRemoved };
}

export async function allOfRole(ctx: AppContext, schoolId: number, role: 'parent' | 'student') {
  return { items: await repo.peopleWithRoles(ctx.db, schoolId, [role], { activeOnly: true }) };
}

/** GET events/recipients: a page of the list, searched on the server, and how many match. */
export async function recipientsOfEvent(ctx: AppContext, schoolId: number, query: RecipientsQuery) {
  await requireEvent(ctx.db, schoolId, query.eventId);
  const page = await repo.recipientsPage(ctx.db, schoolId, query.eventId, {
    q: query.q,
    notBooked: query.notBooked === 1,
    limit: RECIPIENTS_PAGE_SIZE,
    offset: (query.page - 1) * RECIPIENTS_PAGE_SIZE,
  });
  return {
    items: page.rows.map((row) => ({
      id: row.id,
      name: row.name,
      email: row.email,
      roles: row.roles.filter(
        (role): role is 'parent' | 'student' => role === 'parent' || role === 'student',
      ),
      booked: row.booked,
      familyId: row.family_id,
    })),
    total: page.total,
    page: query.page,
    pageSize: RECIPIENTS_PAGE_SIZE,
  };
}

/** GET events/recipient-counts: the whole list's counts (people, booked, families not booked). */
export async function recipientCountsOf(ctx: AppContext, schoolId: number, eventId: number) {
  await requireEvent(ctx.db, schoolId, eventId);
  return repo.recipientCounts(ctx.db, schoolId, eventId);
}
