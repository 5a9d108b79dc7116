import { RECIPIENTS_PAGE_SIZE, type RecipientsQuery } from '@parley/domain/event-lists';
import { type AddRecipientsRequest, EVENT_TEXT, RECIPIENTS_PREVIEW_NAMES } from '@parley/domain/events';
import { SERVER_TEXT } from '@parley/domain/messages';
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
    let who: repo.RecipientCandidates;
    if (body.userIds !== undefined) {
      const ids = [...new Set(body.userIds)];
      const families = await repo.peopleWithRoles(trx, schoolId, ['parent', 'student'], { ids });
      const known = new Set(families.map((person) => person.id));
      const unknown = ids.filter((id) => !known.has(id));
      if (unknown.length) {
        throw unprocessable(SERVER_TEXT.invalidInput, {
          userIds: [`${EVENT_TEXT.unknownRecipient}: ${unknown.join(', ')}`],
        });
      }
      who = { ids };
    } else {
      who = { role: body.all === 'students' ? 'student' : 'parent' };
    }
    // Counted and named by PostgreSQL: "all parents" of a district is 20,000 people, not 20,000 names.
    const preview = await repo.previewRecipients(trx, schoolId, eventId, who, RECIPIENTS_PREVIEW_NAMES);
    if (!save) {
      return {
        ...preview,
        added: 0,
        message: `${preview.toAddCount} to add, ${preview.alreadyAddedCount} already added.`,
      };
    }
    const added = await repo.addRecipientsOf(trx, schoolId, eventId, who);
    return { ...preview, added, message: `${plural(added, 'recipient')} added.` };
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
