import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../src/db/database';
import { asOwner } from '../../src/db/scope';
import { enqueueMail } from '../../src/mail/outbox.repository';
import { insertEntries } from '../../src/modules/audit/audit.repository';
import { insertInvoice, nextNumber, startTrial } from '../../src/modules/billing/billing.repository';
import { addMembers, insertSection } from '../../src/modules/events/events.repository';
import { insertJob } from '../../src/modules/jobs/jobs.repository';
import { finishRun, insertRun } from '../../src/modules/load-test/load-test.repository';
import {
  enableTwoFactor,
  replaceRecoveryCodes,
  savePendingSecret,
} from '../../src/modules/profile/two-factor.repository';
import { createSubject } from '../../src/modules/subjects/subjects.repository';
import { admitTicket, recordScan } from '../../src/modules/tickets/tickets.repository';
import { issueEventLinks, sessionTouchesOf } from '../../src/modules/tokens/tokens.repository';
import { enqueuePush, upsertSubscription } from '../../src/push/push.repository';
import { booked, bookingPage, type Evening, evening, freeSlots, kindEvent } from '../booking/booking-helpers';
import { createEvent, daysAhead } from '../events/events-helpers';
import type { TestApp } from '../test-app';

// A school holding a row of every kind (the tenancy tests build two and look for one in the other):
// a parent-teacher evening with a booking, a ticketed concert with tickets and scans, event recipients and
// scanners, two-factor rows, billing, a load-test run, a job, a push subscription and its outbox, audit entries,
// queued mail, personal booking links, a reminder and a teacher running late: a row in every table that has a school_id.

export type School = Evening & {
  /** The evening's booked slot and its booking (parent, first child, first teacher). */
  slotId: number;
  bookingId: number;
  /** A slot of the evening nobody booked. */
  freeSlotId: number;
  /** A free slot of the second teacher that the parent may still book for the first child. */
  otherSlot: { id: number; teacher_id: number | null; starts_at: Date; ends_at: Date };
  sectionId: number;
  /** An event, a section and a subject nothing points at: free to delete. */
  spareEventId: number;
  spareSectionId: number;
  spareSubjectId: number;
  concertId: number;
  concertBookingId: number;
  /** The concert's tickets: the child's own (admitted, with a scan and a duplicate scan) and a guest's. */
  scannedTicketId: number;
  ticketId: number;
  ticketCode: string;
  scanNonce: string;
  /** The admin's session (auth_tokens id), two-factor on with recovery codes; the first teacher's pending. */
  sessionId: number;
  recoveryCode: string;
  invoiceId: number;
  runId: number;
  pushEndpoint: string;
  /** A message job of the evening, running under a lease (held by nobody still alive). */
  job: { id: number; claims: number; schoolId: number };
};

/** Builds a school of every kind of row; run as the tests' setup (the system scope). */
export async function schoolOfEverything(t: TestApp, name: string): Promise<School> {
  const db = t.db;
  const e = await evening(t, { quick: true, schoolName: name });
  const teacher = e.teachers[0];
  const child = e.children[0];
  if (!teacher || !child) throw new Error('the evening has no teacher or child');
  const school = e.schoolId;

  const { grid } = await bookingPage(e, e.parent.token, e.code);
  const [slotId, freeSlotId] = freeSlots(grid, teacher.id);
  // The third: the child's booking (the first teacher's first slot) overlaps neither it nor its neighbour.
  const otherSlotId = freeSlots(grid, e.teachers[1]?.id ?? 0)[2];
  if (slotId === undefined || freeSlotId === undefined || otherSlotId === undefined)
    throw new Error('the evening has no free slot');
  const otherSlot = await db
    .selectFrom('slots')
    .select(['id', 'teacher_id', 'starts_at', 'ends_at'])
    .where('id', '=', otherSlotId)
    .executeTakeFirstOrThrow();
  await booked(e, e.parent.token, [{ slotId, studentId: child.id, subjectId: e.subjects[0] ?? 0 }]);
  const booking = await rowOf(db, 'bookings', school, 'slot_id', slotId);
  // As the reminder sweep records a reminder sent (claimDayBeforeReminders: a person and a day).
  await db
    .insertInto('day_before_reminders')
    .values({ school_id: school, user_id: e.parent.id, day: daysAhead(7) })
    .execute();
  // The first teacher runs late on the night, and the parent has had "you're next" (live timing).
  await db
    .insertInto('teacher_timings')
    .values({ school_id: school, event_id: e.eventId, teacher_id: teacher.id, late_minutes: 10 })
    .execute();
  await db.insertInto('next_up_notices').values({ booking_id: booking.id, school_id: school }).execute();
  // A video call's signalling message of that booking (as the live channel saves one).
  await db
    .insertInto('call_signals')
    .values({
      school_id: school,
      booking_id: booking.id,
      from_user: e.parent.id,
      payload: JSON.stringify({ kind: 'joined' }),
    })
    .execute();
  // And its teacher in the call too (the next family is told until when).
  await db
    .insertInto('call_signals')
    .values({
      school_id: school,
      booking_id: booking.id,
      from_user: teacher.id,
      payload: JSON.stringify({ kind: 'joined' }),
    })
    .execute();
  // The admin invited to help in that booking's call.
  await db
    .insertInto('call_invitations')
    .values({ school_id: school, booking_id: booking.id, admin_id: e.admin.id, invited_by: teacher.id })
    .execute();
  const section = await db
    .selectFrom('slots')
    .select('section_id')
    .where('id', '=', slotId)
    .executeTakeFirstOrThrow();

  const spareEventId = await createEvent(e.http, e.admin.token, 'Spare event', e.types.booking);
  const spareSectionId = await insertSection(db, school, spareEventId, {
    date: daysAhead(30),
    start_time: '09:00',
    end_time: '10:00',
    starts_at: new Date(`${daysAhead(30)}T09:00:00Z`),
    ends_at: new Date(`${daysAhead(30)}T10:00:00Z`),
    location: null,
  });
  const spareSubject = await createSubject(db, school, 'Spare subject');

  const concert = await kindEvent(
    t,
    { ...e },
    'ticketed',
    'Concert',
    { usersPerSlot: 50, guestAllowance: 1 },
    [{ date: daysAhead(14), start: '18:30', end: '20:30', location: 'Theatre' }],
  );
  const concertSlot = await rowOf(db, 'slots', school, 'event_id', concert.eventId);
  await booked({ http: e.http, eventId: concert.eventId }, e.parent.token, [
    { slotId: concertSlot.id, studentId: child.id, guests: 1 },
  ]);
  const concertBooking = await rowOf(db, 'bookings', school, 'event_id', concert.eventId);
  const tickets = await db
    .selectFrom('tickets')
    .select(['id', 'code'])
    .where('booking_id', '=', concertBooking.id)
    .orderBy('guest_index')
    .execute();
  const [scanned, guest] = tickets;
  if (!scanned || !guest) throw new Error('the concert booking has no two tickets');
  await addMembers(db, 'event_scanners', school, concert.eventId, [e.admin.id]);
  await addMembers(db, 'event_recipients', school, e.eventId, [e.parent.id, e.otherParent.id]);
  await admitTicket(db, school, scanned.id, { by: e.admin.id, device: 'door-1' });
  const scanNonce = randomUUID();
  for (const action of ['admit', 'duplicate'] as const)
    await recordScan(db, {
      school_id: school,
      event_id: concert.eventId,
      ticket_id: scanned.id,
      action,
      by_user: e.admin.id,
      device_id: 'door-1',
      client_nonce: action === 'admit' ? scanNonce : null,
      device_time: new Date(),
      answer: `{"action":"${action}"}`,
    });

  const session = await db
    .selectFrom('auth_tokens')
    .select('id')
    .where('school_id', '=', school)
    .where('user_id', '=', e.admin.id)
    .where('kind', '=', 'access')
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  const admin = { userId: e.admin.id, schoolId: school };
  await savePendingSecret(db, admin, `sealed-${school}`);
  await enableTwoFactor(db, admin, 1);
  const recoveryCode = `recovery-${school}`;
  await replaceRecoveryCodes(db, admin, [recoveryCode, `${recoveryCode}-2`]);
  await savePendingSecret(db, { userId: teacher.id, schoolId: school }, `sealed-pending-${school}`);
  await issueEventLinks(db, { schoolId: school, eventId: e.eventId, userIds: [e.parent.id] });

  await startTrial(db, school, 30);
  await db
    .updateTable('school_billing')
    .set({ stripe_customer_id: `cus_${school}` })
    .where('school_id', '=', school)
    .execute();
  const invoice = await insertInvoice(db, newInvoice(school, await nextNumber(db, 'test-seller')));

  const runId = await insertRun(db, {
    schoolId: school,
    eventId: e.eventId,
    eventName: 'Year 9 consultations',
    parents: 10,
    startedBy: e.admin.id,
  });
  if (runId === null) throw new Error('another load-test run is running');
  await finishRun(db, school, runId, { status: 'finished', figures: {}, integrity: null, failure: null });

  const pushEndpoint = `https://push.example/${school}/${randomUUID()}`;
  await upsertSubscription(db, {
    schoolId: school,
    userId: e.parent.id,
    endpoint: pushEndpoint,
    p256dh: 'key',
    auth: 'auth',
    userAgent: null,
  });
  await enqueuePush(db, school, {
    userIds: [e.parent.id],
    payload: { title: 'Hi' },
    ttlSeconds: 60,
    urgency: 'normal',
  });
  await insertEntries(db, [
    {
      school_id: school,
      actor_id: e.admin.id,
      actor_name: 'Ada Lovelace',
      actor_email: e.admin.email,
      action: 'event.update',
      subject_type: 'event',
      subject_id: e.eventId,
      subject_label: 'Year 9 consultations',
      event_id: e.eventId,
      person_ids: [e.parent.id],
      detail: JSON.stringify({}),
    },
  ]);
  await enqueueMail(db, {
    schoolId: school,
    to: e.parent.email,
    subject: 'Hello',
    text: 'Hi',
    html: '<p>Hi</p>',
    links: [],
  });
  const job = await insertJob(db, {
    schoolId: school,
    eventId: e.eventId,
    kind: 'event-message',
    payload: { message: 'reminder', notBooked: true },
    total: 3,
    leaseSeconds: 60,
  });
  // The sessions its requests marked as used are written now, not during a test's snapshots a second later.
  await sessionTouchesOf(db).flush();

  return {
    ...e,
    slotId,
    bookingId: booking.id,
    freeSlotId,
    otherSlot,
    sectionId: section.section_id,
    spareEventId,
    spareSectionId,
    spareSubjectId: spareSubject.id,
    concertId: concert.eventId,
    concertBookingId: concertBooking.id,
    scannedTicketId: scanned.id,
    ticketId: guest.id,
    ticketCode: guest.code,
    scanNonce,
    sessionId: session.id,
    recoveryCode,
    invoiceId: invoice.id,
    runId,
    pushEndpoint,
    job,
  };
}

async function rowOf(
  db: Db,
  table: 'bookings' | 'slots',
  school: number,
  column: 'slot_id' | 'event_id',
  id: number,
) {
  return db
    .selectFrom(table)
    .select('id')
    .where('school_id', '=', school)
    .where(column, '=', id)
    .orderBy('id')
    .executeTakeFirstOrThrow();
}

/** An unpaid invoice of the school (the billing tests issue them through the service). */
export function newInvoice(schoolId: number, number: number) {
  const party = { name: 'Party', address: 'Street 1', taxNumber: null, email: null };
  const now = new Date();
  return {
    schoolId,
    seller: 'test-seller',
    number,
    kind: 'invoice' as const,
    creditsInvoiceId: null,
    dueAt: now,
    planId: 'standard',
    planName: 'Standard',
    periodStart: now,
    periodEnd: now,
    poNumber: null,
    currency: 'GBP',
    netMinor: 100,
    taxRatePercent: 20,
    taxMinor: 20,
    totalMinor: 120,
    billTo: party,
    sellerDetails: party,
    reason: null,
    stripeSessionId: `cs_${schoolId}_${number}`,
    paid: null,
  };
}

/** Tables holding a school's rows, found by their column (a table added later is included). */
export async function schoolTables(db: Db): Promise<string[]> {
  const { rows } = await asOwner(() =>
    sql<{ table_name: string }>`SELECT c.table_name FROM information_schema.columns c
      JOIN information_schema.tables USING (table_schema, table_name)
      WHERE c.table_schema = 'public' AND c.column_name = 'school_id' AND table_type = 'BASE TABLE'
      ORDER BY 1`.execute(db),
  );
  return rows.map((row) => row.table_name);
}
