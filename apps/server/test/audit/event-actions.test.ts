import type { EventTicketResponse } from '@parley/domain/tickets';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addRecipients,
  booked,
  bookingPage,
  type Evening,
  evening,
  freeSlots,
  type KindEvent,
  kindEvent,
  OPEN_DOOR,
} from '../booking/booking-helpers';
import { type Api, expectStatus } from '../directory/directory-helpers';
import { daysAhead } from '../events/events-helpers';
import { createTestApp, type TestApp } from '../test-app';
import { entriesOf, entryCount, expectWhoWhenWhere, from, withAction } from './audit-helpers';

// The audit trail of events (issue 11, decision 014): enabling, disabling and editing an event, messages
// sent to its recipients, a door's admission undone, tickets re-issued, the event deleted (its entries
// stay), and a teacher or parent removed with bookings.

let t: TestApp;
let e: Evening;
let staff: Api;
let concert: KindEvent;
const since = new Date();
const child = () => e.children[0] ?? e.otherChild;
const eventEntries = (id: number) => entriesOf(staff, e.admin.token, 'event', id);
const personEntries = (id: number) => entriesOf(staff, e.admin.token, 'person', id);

beforeAll(async () => {
  t = await createTestApp();
  e = await evening(t, { quick: true });
  staff = from(t.app);
  concert = await kindEvent(
    t,
    e,
    'ticketed',
    'Summer concert',
    { usersPerSlot: 100, guestAllowance: 2, ...OPEN_DOOR },
    [{ date: daysAhead(14), start: '18:30', end: '20:30', location: 'Theatre' }],
  );
});
afterAll(() => t.close());

describe('an event’s status and settings', () => {
  it('enabling, disabling and editing: each an entry on the event with what changed', async () => {
    const { id } = expectStatus<{ id: number }>(
      await staff.post('events/create', e.admin.token, {
        name: 'Open evening',
        eventTypeId: e.types.booking,
      }),
      200,
    );
    expectStatus(await staff.post(`events/update?id=${id}`, e.admin.token, { status: 1 }), 200);
    let [entry] = await eventEntries(id);
    expect(entry).toMatchObject({
      action: 'event.enabled',
      subject: { type: 'event', id, label: 'Open evening' },
      eventId: id,
      detail: { changes: { status: { from: 0, to: 1 } } },
      summary: 'Enabled Open evening',
    });
    expectWhoWhenWhere(entry, e.admin, since);

    expectStatus(
      await staff.post(`events/update?id=${id}`, e.admin.token, { status: 0, name: 'Open evening 2026' }),
      200,
    );
    [entry] = await eventEntries(id);
    expect(entry).toMatchObject({
      action: 'event.disabled',
      detail: {
        changes: { status: { from: 1, to: 0 }, name: { from: 'Open evening', to: 'Open evening 2026' } },
      },
      summary: 'Disabled Open evening: name Open evening → Open evening 2026',
    });

    expectStatus(
      await staff.post(`events/update?id=${id}`, e.admin.token, { bookingPageMessage: 'Bring your diary.' }),
      200,
    );
    [entry] = await eventEntries(id);
    expect(entry).toMatchObject({
      action: 'event.updated',
      detail: { changes: { bookingPageMessage: { from: null, to: 'Bring your diary.' } } },
    });

    expectStatus(
      await staff.post(`events/update-booking-notification-status?id=${id}`, e.admin.token, {}),
      200,
    );
    [entry] = await eventEntries(id);
    expect(entry?.detail.changes).toHaveProperty('bookingNotifications');
    expectWhoWhenWhere(entry, e.admin, since);

    // Saving what is already there changes nothing and records nothing.
    const count = await entryCount(t.db);
    expectStatus(await staff.post(`events/update?id=${id}`, e.admin.token, { status: 0 }), 200);
    expect(await entryCount(t.db)).toBe(count);
  });
});

describe('messages sent', () => {
  it('an invitation to book for all recipients: on the event and on each recipient', async () => {
    await addRecipients(e, e.eventId, [e.parent.id, e.otherParent.id]);
    const sent = expectStatus<{ sent: number }>(
      await staff.post(`message-types/send?eventId=${e.eventId}`, e.admin.token, {
        messageTypeName: 'inviteToBook',
        audience: 'all',
      }),
      200,
    );
    expect(sent.sent).toBe(2);
    const [entry] = await eventEntries(e.eventId);
    expect(entry).toMatchObject({
      action: 'message.sent',
      subject: { type: 'event', id: e.eventId, label: 'Year 9 consultations' },
      detail: { message: 'inviteToBook', audience: 'all', recipients: 2 },
      summary: 'Sent the invitation to book for Year 9 consultations to 2 recipients',
    });
    expect([...(entry?.people ?? [])].sort()).toEqual([e.parent.id, e.otherParent.id].sort());
    expectWhoWhenWhere(entry, e.admin, since);
    expect((await personEntries(e.otherParent.id))[0]?.id).toBe(entry?.id);
  });

  it('a reminder to one recipient', async () => {
    expectStatus(
      await staff.post('message-types/send-to-single-recipient', e.admin.token, {
        eventId: e.eventId,
        userId: e.parent.id,
        messageTypeName: 'reminder',
      }),
      200,
    );
    const [entry] = await personEntries(e.parent.id);
    expect(entry).toMatchObject({
      action: 'message.sent',
      people: [e.parent.id],
      detail: { message: 'reminder', audience: 'one', recipients: 1 },
    });
    expectWhoWhenWhere(entry, e.admin, since);
  });
});

describe('tickets at the door', () => {
  let codes: string[];

  beforeAll(async () => {
    const slot = await t.db
      .selectFrom('slots')
      .select('id')
      .where('event_id', '=', concert.eventId)
      .executeTakeFirstOrThrow();
    await booked({ http: e.http, eventId: concert.eventId }, e.parent.token, [
      { slotId: slot.id, studentId: child().id, guests: 1 },
    ]);
    const tickets = expectStatus<EventTicketResponse>(
      await e.http.get(
        `tickets/get-event-ticket?eventId=${concert.eventId}&userId=${child().id}`,
        e.parent.token,
      ),
      200,
    );
    codes = tickets.data.tickets.map((ticket) => ticket.ticketId);
  });

  it('admitting is not a change to record; undoing an admission is: "ticket.scan_undone"', async () => {
    const count = await entryCount(t.db);
    expectStatus(
      await staff.post('tickets/scan-ticket', e.admin.token, {
        ticketId: codes[1],
        eventId: concert.eventId,
      }),
      200,
    );
    expect(await entryCount(t.db)).toBe(count);
    expectStatus(await staff.post('tickets/undo-scan', e.admin.token, { ticketId: codes[1] }), 200);
    const [entry] = await eventEntries(concert.eventId);
    const name = `${child().firstName} ${child().lastName}`;
    expect(entry).toMatchObject({
      action: 'ticket.scan_undone',
      subject: { type: 'ticket', label: `Guest 1 of ${name}, Summer concert` },
      eventId: concert.eventId,
      people: [child().id],
    });
    expect(entry?.detail.at).toMatch(/\d{2}:\d{2}$/);
    expectWhoWhenWhere(entry, e.admin, since);
    expect((await personEntries(child().id))[0]?.id).toBe(entry?.id);
  });

  it('re-issuing tickets: "tickets.reissued" with how many', async () => {
    expectStatus(
      await staff.post('tickets/generate-tickets', e.admin.token, {
        eventId: concert.eventId,
        userIds: [child().id],
      }),
      200,
    );
    const [entry] = await eventEntries(concert.eventId);
    expect(entry).toMatchObject({ action: 'tickets.reissued', detail: { tickets: 2 } });
    expect(entry?.people).toEqual(expect.arrayContaining([e.parent.id, child().id]));
    expectWhoWhenWhere(entry, e.admin, since);
  });
});

describe('deleting', () => {
  it('an event with a booking: "event.deleted" with the bookings cancelled; its entries are kept', async () => {
    const fair = await kindEvent(t, e, 'booking', 'Book fair', {}, [
      { date: daysAhead(10), start: '10:00', end: '11:00' },
    ]);
    const slot = await t.db
      .selectFrom('slots')
      .select('id')
      .where('event_id', '=', fair.eventId)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    await booked({ http: e.http, eventId: fair.eventId }, e.otherParent.token, [
      { slotId: slot.id, studentId: e.otherChild.id },
    ]);
    expectStatus(await staff.post(`events/delete?id=${fair.eventId}`, e.admin.token, { confirm: true }), 200);
    expect(
      await t.db.selectFrom('events').select('id').where('id', '=', fair.eventId).executeTakeFirst(),
    ).toBe(undefined);
    const entries = await eventEntries(fair.eventId);
    expect(entries[0]).toMatchObject({
      action: 'event.deleted',
      subject: { type: 'event', id: fair.eventId, label: 'Book fair' },
      detail: { bookingsCancelled: 1 },
      summary: 'Deleted Book fair (1 booking cancelled)',
    });
    expect(entries[0]?.people).toEqual(expect.arrayContaining([e.otherParent.id, e.otherChild.id]));
    expectWhoWhenWhere(entries[0], e.admin, since);
    // What came before (its enabling, when it was set up) is still there.
    expect(withAction(entries, 'event.enabled')).toHaveLength(1);
    expect((await personEntries(e.otherParent.id))[0]?.id).toBe(entries[0]?.id);
  });

  it('a teacher with appointments to come: removed, the bookings cancelled, the account kept for the records', async () => {
    const teacher = e.teachers[3] ?? e.teachers[0];
    if (!teacher) throw new Error('fixture has teachers');
    const slots = freeSlots((await bookingPage(e, e.parent.token, e.code)).grid, teacher.id);
    await booked(e, e.parent.token, [{ slotId: slots[0] ?? 0, studentId: e.children[1]?.id ?? 0 }]);
    expectStatus(await staff.post(`users/delete?id=${teacher.id}&role=teacher`, e.admin.token), 200);
    const [entry] = await personEntries(teacher.id);
    expect(entry).toMatchObject({
      action: 'person.deleted',
      detail: { role: 'teacher', accountKept: true, bookingsCancelled: 1 },
    });
    expect(entry?.summary).toContain('(1 booking cancelled)');
    expectWhoWhenWhere(entry, e.admin, since);
  });
});
