import { createHash } from 'node:crypto';
import { type EventDetail, SCAN_WINDOW_HOURS_MAX } from '@parley/domain/events';
import {
  type CheckInResponse,
  type DoorState,
  type EventTicketResponse,
  OFFLINE_LIST_TTL_MS,
  type OfflineList,
  type ScanTicketResponse,
  type SyncScansResponse,
  TICKET_TEXT,
  type Ticket,
  type ValidateTicketResponse,
} from '@parley/domain/tickets';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  booked,
  type Evening,
  evening,
  type KindEvent,
  kindEvent,
  OPEN_DOOR,
  quickMember,
} from '../booking/booking-helpers';
import { expectStatus } from '../directory/directory-helpers';
import { daysAhead, eventSchool } from '../events/events-helpers';
import { createTestApp, TEST_APP_URL, type TestApp } from '../test-app';

// Tickets through the API (issue 10, spec §6 and §8): who sees which ticket, who may validate and scan,
// a ticket per head, cancelled bookings' tickets, re-issue, undo, the door's count.

let t: TestApp;
let e: Evening;
let concert: KindEvent;
let slotId: number;
const child = (i: number) => e.children[i] ?? e.otherChild;

const get = <T>(path: string, token: string, status = 200) =>
  e.http.get(path, token).then((r) => expectStatus<T>(r, status));
const post = <T>(path: string, token: string, body: unknown, status = 200) =>
  e.http.post(path, token, body).then((r) => expectStatus<T>(r, status));
const ticketsOf = (token: string, userId: number, status = 200) =>
  get<EventTicketResponse>(
    `tickets/get-event-ticket?eventId=${concert.eventId}&userId=${userId}`,
    token,
    status,
  );
const validate = (token: string, code: string, eventId: number | null = concert.eventId, status = 200) =>
  get<ValidateTicketResponse>(
    `tickets/validate-ticket?ticketId=${encodeURIComponent(code)}${eventId ? `&eventId=${eventId}` : ''}`,
    token,
    status,
  );
const scan = (token: string, code: string, extra: Record<string, unknown> = {}, status = 200) =>
  post<ScanTicketResponse>(
    'tickets/scan-ticket',
    token,
    { ticketId: code, eventId: concert.eventId, ...extra },
    status,
  );

beforeAll(async () => {
  t = await createTestApp();
  e = await evening(t, { quick: true });
  concert = await kindEvent(
    t,
    e,
    'ticketed',
    'Summer concert',
    { usersPerSlot: 100, guestAllowance: 2, ...OPEN_DOOR },
    [{ date: daysAhead(14), start: '18:30', end: '20:30', location: 'Theatre' }],
  );
  const slot = await t.db
    .selectFrom('slots')
    .select('id')
    .where('event_id', '=', concert.eventId)
    .executeTakeFirstOrThrow();
  slotId = slot.id;
  // The first child comes with two guests: three tickets. The other family's child comes alone.
  await booked({ http: e.http, eventId: concert.eventId }, e.parent.token, [
    { slotId, studentId: child(0).id, guests: 2 },
  ]);
  await booked({ http: e.http, eventId: concert.eventId }, e.otherParent.token, [
    { slotId, studentId: e.otherChild.id, guests: 0 },
  ]);
});
afterAll(() => t.close());

describe('a ticket per head, seen by the right people', () => {
  it('a booking with two guests holds three tickets: the attendee’s, then "Guest 1 of …", "Guest 2 of …"', async () => {
    const { data } = await ticketsOf(e.parent.token, child(0).id);
    const name = `${child(0).firstName} ${child(0).lastName}`;
    expect(data.success).toBe(true);
    expect(data.tickets.map((ticket) => ticket.userName)).toEqual([
      name,
      `Guest 1 of ${name}`,
      `Guest 2 of ${name}`,
    ]);
    expect(data.ticket).toEqual(data.tickets[0]);
    for (const ticket of data.tickets) {
      expect(ticket.ticketId).toMatch(/^[A-Za-z0-9_-]{22}$/); // 128 random bits, base64url
      expect(ticket.qrCodeUrl).toBe(`${TEST_APP_URL}/t/${ticket.ticketId}`);
      expect(ticket).toMatchObject({
        scanned: false,
        scannedDate: null,
        eventName: 'Summer concert',
        location: 'Theatre',
      });
    }
    expect(new Set(data.tickets.map((ticket) => ticket.ticketId)).size).toBe(3);
  });

  it('the booking’s mail carries each ticket: an inline QR image (PNG) and its link', async () => {
    const { data } = await ticketsOf(e.parent.token, child(0).id);
    const mail = await t.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('to_address', '=', e.parent.email.toLowerCase())
      .where('subject', 'like', 'Summer concert%')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const images = mail.attachments.filter((attachment) => attachment.contentType === 'image/png');
    expect(images).toHaveLength(3);
    for (const [index, ticket] of data.tickets.entries()) {
      const image = images[index];
      expect(image?.cid).toBe(`ticket-${ticket.ticketId}@parley`);
      expect(
        Buffer.from(image?.content ?? '', 'base64')
          .subarray(1, 4)
          .toString(),
      ).toBe('PNG');
      expect(mail.html_body).toContain(`src="cid:${image?.cid}"`);
      expect(mail.links).toContain(ticket.qrCodeUrl);
      expect(mail.text_body).toContain(ticket.qrCodeUrl);
    }
    expect(mail.text_body).toContain(`Guest 2 of ${child(0).firstName} ${child(0).lastName}`);
  });

  it('the attendee sees their own; a parent their child’s; the admin any; another family 403', async () => {
    expect((await ticketsOf(child(0).token, child(0).id)).data.tickets).toHaveLength(3);
    expect((await ticketsOf(e.admin.token, child(0).id)).data.tickets).toHaveLength(3);
    const refused = await e.http.get(
      `tickets/get-event-ticket?eventId=${concert.eventId}&userId=${child(0).id}`,
      e.otherParent.token,
    );
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: TICKET_TEXT.loadForbidden });
    expect((await ticketsOf(child(1).token, child(0).id, 403)) as unknown).toEqual({
      message: TICKET_TEXT.loadForbidden,
    });
  });

  it('someone without a booking has no ticket: success, and no ticket found', async () => {
    const { data } = await ticketsOf(child(1).token, child(1).id);
    expect(data).toEqual({ success: true, ticket: null, tickets: [], message: TICKET_TEXT.noTicketFound });
  });

  it('another school’s event, or an event that issues no tickets: 404 "Event not found or tickets not enabled"', async () => {
    const other = await eventSchool(t, 'Other Academy');
    const foreign = await e.http.get(
      `tickets/get-event-ticket?eventId=${concert.eventId}&userId=${child(0).id}`,
      other.admin.token,
    );
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ message: TICKET_TEXT.loadNotFound });
    const evening404 = await e.http.get(
      `tickets/get-event-ticket?eventId=${e.eventId}&userId=${child(0).id}`,
      e.admin.token,
    );
    expect(evening404.statusCode).toBe(404);
    // And another school's admin cannot validate or scan this school's ticket: it is no ticket there.
    const code = (await ticketsOf(e.admin.token, child(0).id)).data.tickets[0]?.ticketId ?? '';
    expect((await validate(other.admin.token, code, null)).data).toEqual({
      valid: false,
      message: TICKET_TEXT.unknown,
    });
  });
});

describe('validating and scanning at the door', () => {
  let codes: string[];
  let otherCode: string;
  beforeAll(async () => {
    codes = (await ticketsOf(e.admin.token, child(0).id)).data.tickets.map((ticket) => ticket.ticketId);
    otherCode = (await ticketsOf(e.admin.token, e.otherChild.id)).data.tickets[0]?.ticketId ?? '';
    // A teacher and a student are this event's scanners.
    await post(`events/update-can-scan-user-ids?id=${concert.eventId}`, e.admin.token, {
      canScanUserIds: [e.teachers[0]?.id, child(1).id],
    });
  });
  const teacher = () => e.teachers[0]?.token ?? '';
  const outsider = () => e.teachers[1]?.token ?? '';

  it('someone who is not a scanner of the event gets 403 for validate, scan and the door', async () => {
    for (const response of [
      await e.http.get(`tickets/validate-ticket?ticketId=${codes[0]}&eventId=${concert.eventId}`, outsider()),
      await e.http.get(`tickets/validate-ticket?ticketId=${codes[0]}`, outsider()),
      await e.http.post('tickets/scan-ticket', outsider(), { ticketId: codes[0], eventId: concert.eventId }),
      await e.http.get(`tickets/door?eventId=${concert.eventId}`, outsider()),
      await e.http.get(`tickets/validate-ticket?ticketId=${codes[0]}`, e.otherChild.token),
    ]) {
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ message: TICKET_TEXT.notScanner });
    }
  });

  it('a designated teacher: valid, then "Ticket Scanned Successfully!", then "Already Scanned" saying when and by whom', async () => {
    const before = await validate(teacher(), codes[0] ?? '');
    expect(before.data).toMatchObject({
      valid: true,
      message: TICKET_TEXT.valid,
      ticket: { scanned: false },
    });
    const first = await scan(teacher(), codes[0] ?? '');
    expect(first.data).toMatchObject({ success: true, message: TICKET_TEXT.scanned, alreadyScanned: false });
    expect(first.data.ticket).toMatchObject({ scanned: true, scannedBy: e.teachers[0]?.id });
    expect(Date.parse(first.data.ticket?.scannedDate ?? '')).toBeGreaterThan(Date.now() - 60_000);
    const again = await scan(teacher(), codes[0] ?? '');
    expect(again.data).toMatchObject({ success: false, alreadyScanned: true });
    expect(again.data.message).toMatch(/^Already scanned .+ by .+\.$/);
    expect(again.data.message).toContain(`${e.teachers[0]?.firstName} ${e.teachers[0]?.lastName}`);
    const after = await validate(teacher(), codes[0] ?? '');
    expect(after.data).toMatchObject({ valid: true, ticket: { scanned: true } });
    expect(after.data.message).toBe(again.data.message);
    // The holder's own view says Scanned, with the time.
    const mine = (await ticketsOf(child(0).token, child(0).id)).data.ticket as Ticket;
    expect(mine).toMatchObject({ scanned: true, scannedDate: first.data.ticket?.scannedDate });
  });

  it('a student named as scanner may scan (iCanScan); a student who is not, may not', async () => {
    const guest = await scan(child(1).token, codes[1] ?? '');
    expect(guest.data).toMatchObject({ success: true, ticket: { guestIndex: 1, scannedBy: child(1).id } });
    const refused = await e.http.post('tickets/scan-ticket', e.otherChild.token, {
      ticketId: codes[2],
      eventId: concert.eventId,
    });
    expect(refused.statusCode).toBe(403);
  });

  it('a forged code is "not a ticket"; a code of another event or school is too, and names no holder', async () => {
    expect((await validate(teacher(), 'forged-code-that-is-no-ticket')).data).toEqual({
      valid: false,
      message: TICKET_TEXT.unknown,
    });
    expect((await scan(teacher(), 'forged-code-that-is-no-ticket')).data).toEqual({
      success: false,
      message: TICKET_TEXT.unknown,
      alreadyScanned: false,
    });
    const gala = await kindEvent(t, e, 'graduation', 'Graduation', { usersPerSlot: 50 }, [
      { date: daysAhead(20), start: '14:00', end: '16:00', location: 'Hall' },
    ]);
    await post(`events/update-can-scan-user-ids?id=${gala.eventId}`, e.admin.token, {
      canScanUserIds: [e.teachers[0]?.id],
    });
    // Issue 35: the answer to a foreign code said whose it was (name, email, code); now nothing.
    const wrongDoor = await validate(teacher(), otherCode, gala.eventId);
    expect(wrongDoor.data).toEqual({ valid: false, message: TICKET_TEXT.unknown });
    const wrongScan = await scan(teacher(), otherCode, { eventId: gala.eventId });
    expect(wrongScan.data).toEqual({ success: false, message: TICKET_TEXT.unknown, alreadyScanned: false });
    const other = await eventSchool(t, 'Foreign Door Academy');
    const foreign = await e.http.post('tickets/scan-ticket', other.admin.token, { ticketId: otherCode });
    for (const answer of [wrongDoor, wrongScan, foreign.json()]) {
      const text = JSON.stringify(answer);
      for (const secret of [otherCode, e.otherChild.email, e.otherChild.lastName, 'Summer concert'])
        expect(text).not.toContain(secret);
    }
    expect(foreign.json()).toEqual({
      data: { success: false, message: TICKET_TEXT.unknown, alreadyScanned: false },
    });
  });

  it('the same scan retried (same client nonce) gets the first answer, not "Already Scanned"', async () => {
    const nonce = 'retry-nonce-0001';
    const first = await scan(teacher(), otherCode, { clientNonce: nonce, deviceId: 'door-1' });
    expect(first.data.success).toBe(true);
    const retry = await scan(teacher(), otherCode, { clientNonce: nonce, deviceId: 'door-1' });
    expect(retry).toEqual(first);
    const rows = await t.db
      .selectFrom('ticket_scans')
      .select(['action', 'device_id'])
      .where('client_nonce', '=', nonce)
      .execute();
    expect(rows).toEqual([{ action: 'admit', device_id: 'door-1' }]);
    const ticket = await t.db
      .selectFrom('tickets')
      .select('scanned_device')
      .where('code', '=', otherCode)
      .executeTakeFirstOrThrow();
    expect(ticket.scanned_device).toBe('door-1');
  });

  it('a retry that arrives after an undo answers as before and admits nothing again', async () => {
    const code = codes[2] ?? '';
    const nonce = 'undo-then-retry-01';
    const first = await scan(e.admin.token, code, { clientNonce: nonce });
    expect(first.data.success).toBe(true);
    await post('tickets/undo-scan', e.admin.token, { ticketId: code });
    expect(await scan(e.admin.token, code, { clientNonce: nonce })).toEqual(first);
    expect((await validate(e.admin.token, code)).data.ticket?.scanned).toBe(false);
    expect((await scan(e.admin.token, code)).data.success).toBe(true); // a new scan admits
    await post('tickets/undo-scan', e.admin.token, { ticketId: code });
  });

  it('the door counts heads, guests included, and finds a ticket by name for a manual check-in', async () => {
    const door = await get<DoorState>(
      `tickets/door?eventId=${concert.eventId}&q=${encodeURIComponent(child(0).lastName)}`,
      teacher(),
    );
    expect(door).toMatchObject({ expected: 4, admitted: 3, toCome: 1, guestsExpected: 2, guestsAdmitted: 1 });
    const ids = await ticketIds(codes);
    expect(door.recent.map((ticket) => ticket.id)).toEqual(await ticketIds([otherCode, codes[1], codes[0]]));
    expect(door.matches.map((ticket) => ticket.id)).toEqual(expect.arrayContaining(ids));
    expect(door.matches[0]).toEqual({
      id: ids[0],
      eventId: concert.eventId,
      userName: `${child(0).firstName} ${child(0).lastName}`,
      guestIndex: 0,
      scanned: true,
      scannedDate: expect.any(String),
      scannedByName: expect.any(String),
    });
  });

  it('the door’s search and lists hold no code, QR link or email (issue 35): a scanner cannot collect tickets', async () => {
    const every = [...codes, otherCode];
    const emails = [child(0).email, e.otherChild.email];
    // Two letters at a time, as the finding's five searches did, and the unsearched door.
    for (const q of [undefined, child(0).lastName.slice(0, 2), e.otherChild.lastName.slice(0, 2), 'e', '@']) {
      const door = await get<DoorState>(
        `tickets/door?eventId=${concert.eventId}${q ? `&q=${encodeURIComponent(q)}` : ''}`,
        teacher(),
      );
      const text = JSON.stringify(door);
      for (const secret of [...every, ...emails, TEST_APP_URL]) expect(text).not.toContain(secret);
    }
    // An email finds no one: the search is by name only.
    const byEmail = await get<DoorState>(
      `tickets/door?eventId=${concert.eventId}&q=${encodeURIComponent(child(0).email)}`,
      teacher(),
    );
    expect(byEmail.matches).toEqual([]);
  });

  it('an admin undoes a scan (recorded); the ticket scans again; undo of an unscanned one is 409; a teacher may not', async () => {
    const undone = await post<ScanTicketResponse>('tickets/undo-scan', e.admin.token, { ticketId: codes[0] });
    expect(undone.data).toMatchObject({
      success: true,
      message: TICKET_TEXT.scanUndone,
      ticket: { scanned: false },
    });
    expect((await e.http.post('tickets/undo-scan', e.admin.token, { ticketId: codes[0] })).statusCode).toBe(
      409,
    );
    expect((await e.http.post('tickets/undo-scan', teacher(), { ticketId: codes[1] })).statusCode).toBe(403);
    expect((await scan(teacher(), codes[0] ?? '')).data.success).toBe(true);
    const history = await t.db
      .selectFrom('ticket_scans as s')
      .innerJoin('tickets as tk', 'tk.id', 's.ticket_id')
      .select('s.action')
      .where('tk.code', '=', codes[0] ?? '')
      .orderBy('s.id')
      .execute();
    expect(history.map((row) => row.action)).toEqual(['admit', 'refused', 'undo', 'admit']);
  });
});

/** The ids of tickets (what the door shows), by code, in order. */
async function ticketIds(codes: Array<string | undefined>): Promise<number[]> {
  const rows = await t.db
    .selectFrom('tickets')
    .select(['id', 'code'])
    .where(
      'code',
      'in',
      codes.map((code) => code ?? ''),
    )
    .execute();
  return codes.map((code) => rows.find((row) => row.code === code)?.id ?? 0);
}

describe('tickets live with their booking', () => {
  it('cancelling the booking voids its tickets: invalid at the door, gone from the family’s view', async () => {
    const family = await quickMember(t, e.admin.token, 'parent');
    const kid = await quickMember(t, e.admin.token, 'student', { parentIds: [family.id] });
    const result = await booked({ http: e.http, eventId: concert.eventId }, family.token, [
      { slotId, studentId: kid.id, guests: 1 },
    ]);
    const codes = (await ticketsOf(family.token, kid.id)).data.tickets.map((ticket) => ticket.ticketId);
    expect(codes).toHaveLength(2);
    await post(`events/remove-booking?eventId=${concert.eventId}`, family.token, {
      bookingId: result.created[0],
    });
    expect((await ticketsOf(family.token, kid.id)).data.tickets).toEqual([]);
    for (const code of codes)
      expect((await validate(e.admin.token, code)).data).toEqual({
        valid: false,
        message: TICKET_TEXT.voided,
      });
    expect((await scan(e.admin.token, codes[0] ?? '')).data).toMatchObject({
      success: false,
      message: TICKET_TEXT.voided,
    });
  });

  it('generate-tickets (admin) re-issues: new codes, the old ones void; teachers and parents 403', async () => {
    const before = (await ticketsOf(e.admin.token, e.otherChild.id)).data.tickets.map(
      (ticket) => ticket.ticketId,
    );
    // Admitted above: undone first (a mistake at the door), as a re-issue keeps an admitted ticket (below).
    await post('tickets/undo-scan', e.admin.token, { ticketId: before[0] });
    const answer = await post<{ data: { success: boolean; issued: number; message: string } }>(
      'tickets/generate-tickets',
      e.admin.token,
      { eventId: concert.eventId, userIds: [e.otherChild.id] },
    );
    expect(answer.data).toEqual({ success: true, issued: 1, message: TICKET_TEXT.issued(1) });
    const after = (await ticketsOf(e.admin.token, e.otherChild.id)).data.tickets.map(
      (ticket) => ticket.ticketId,
    );
    expect(after).toHaveLength(1);
    expect(after[0]).not.toBe(before[0]);
    expect((await validate(e.admin.token, before[0] ?? '')).data.valid).toBe(false);
    for (const token of [e.teachers[0]?.token ?? '', e.parent.token])
      expect(
        (await e.http.post('tickets/generate-tickets', token, { eventId: concert.eventId, userIds: [] }))
          .statusCode,
      ).toBe(403);
    const evening = await e.http.post('tickets/generate-tickets', e.admin.token, {
      eventId: e.eventId,
      userIds: [],
    });
    expect(evening.statusCode).toBe(422);
  });

  it('generate-tickets keeps a ticket already admitted: its person is in, the door count stays', async () => {
    const [admitted = ''] = (await ticketsOf(e.admin.token, e.otherChild.id)).data.tickets.map(
      (ticket) => ticket.ticketId,
    );
    expect((await scan(e.admin.token, admitted)).data.success).toBe(true);
    const answer = await post<{ data: { issued: number } }>('tickets/generate-tickets', e.admin.token, {
      eventId: concert.eventId,
      userIds: [e.otherChild.id],
    });
    expect(answer.data.issued).toBe(0);
    const after = (await ticketsOf(e.admin.token, e.otherChild.id)).data.tickets.map(
      (ticket) => ticket.ticketId,
    );
    expect(after).toEqual([admitted]);
    expect((await validate(e.admin.token, admitted)).data.valid).toBe(true);
  });
});

describe('at a ticketed event a place is a person', () => {
  it('a booking takes one place for the attendee and one per guest; a change of guests gives places back', async () => {
    const small = await kindEvent(
      t,
      e,
      'ticketed',
      'Recital',
      { usersPerSlot: 4, guestAllowance: 2, ...OPEN_DOOR },
      [{ date: daysAhead(21), start: '19:00', end: '20:00', location: 'Music room' }],
    );
    const ev = { http: e.http, eventId: small.eventId };
    const slot = (
      await t.db
        .selectFrom('slots')
        .select('id')
        .where('event_id', '=', small.eventId)
        .executeTakeFirstOrThrow()
    ).id;
    const bookedCount = async () =>
      (await t.db.selectFrom('slots').select('booked_count').where('id', '=', slot).executeTakeFirstOrThrow())
        .booked_count;
    const mine = await booked(ev, e.parent.token, [{ slotId: slot, studentId: child(0).id, guests: 2 }]);
    expect(await bookedCount()).toBe(3);
    // Two more people do not fit in the one place left; one does.
    const tooMany = await e.http.post(
      `events/update-slot-for-booking?id=${small.eventId}`,
      e.otherParent.token,
      {
        items: [{ slotId: slot, studentId: e.otherChild.id, guests: 1 }],
        idempotencyKey: 'recital-other-1',
      },
    );
    expect(tooMany.statusCode).toBe(409);
    // Fewer guests give their places back, and the tickets follow.
    await booked(ev, e.parent.token, [{ slotId: slot, studentId: child(0).id, guests: 0 }], {
      cancelBookingIds: mine.created,
    });
    expect(await bookedCount()).toBe(1);
    const { data } = await get<EventTicketResponse>(
      `tickets/get-event-ticket?eventId=${small.eventId}&userId=${child(0).id}`,
      e.parent.token,
    );
    expect(data.tickets).toHaveLength(1);
    await booked(ev, e.otherParent.token, [{ slotId: slot, studentId: e.otherChild.id, guests: 2 }]);
    expect(await bookedCount()).toBe(4);
  });
});

describe('offline doors', () => {
  let codes: string[];
  let ev: KindEvent;
  beforeAll(async () => {
    ev = await kindEvent(t, e, 'ticketed', 'Prom', { usersPerSlot: 100, guestAllowance: 1, ...OPEN_DOOR }, [
      { date: daysAhead(30), start: '19:00', end: '23:00', location: 'Hall' },
    ]);
    const slot = (
      await t.db.selectFrom('slots').select('id').where('event_id', '=', ev.eventId).executeTakeFirstOrThrow()
    ).id;
    await booked({ http: e.http, eventId: ev.eventId }, e.parent.token, [
      { slotId: slot, studentId: child(0).id, guests: 1 },
    ]);
    codes = (
      await get<EventTicketResponse>(
        `tickets/get-event-ticket?eventId=${ev.eventId}&userId=${child(0).id}`,
        e.parent.token,
      )
    ).data.tickets.map((ticket) => ticket.ticketId);
    await post(`events/update-can-scan-user-ids?id=${ev.eventId}`, e.admin.token, {
      canScanUserIds: [e.teachers[0]?.id],
    });
  });
  const teacher = () => e.teachers[0]?.token ?? '';
  const sync = (token: string, deviceId: string, scans: Array<{ ticketId: string; clientNonce: string }>) =>
    post<SyncScansResponse>('tickets/sync-scans', token, {
      eventId: ev.eventId,
      deviceId,
      scans: scans.map((scan) => ({ ...scan, scannedAt: new Date().toISOString() })),
    });

  it('the list a door takes holds each ticket’s SHA-256, never its code, and says how long to trust it', async () => {
    const list = await get<OfflineList>(`tickets/offline-list?eventId=${ev.eventId}`, teacher());
    expect(list.tickets).toHaveLength(2);
    const body = JSON.stringify(list);
    for (const code of codes) {
      expect(body).not.toContain(code);
      expect(list.tickets.map((ticket) => ticket.hash)).toContain(
        createHash('sha256').update(code).digest('base64url'),
      );
    }
    expect(Date.parse(list.validUntil) - Date.parse(list.issuedAt)).toBe(OFFLINE_LIST_TTL_MS);
    expect(list.tickets[1]).toMatchObject({ guestIndex: 1, scanned: false });
    // The school's zone and the door's window travel with it, so an offline door refuses as the server would.
    const section = await t.db
      .selectFrom('sections')
      .innerJoin('schools', 'schools.id', 'sections.school_id')
      .select(['sections.starts_at', 'sections.ends_at', 'schools.timezone'])
      .where('sections.event_id', '=', ev.eventId)
      .executeTakeFirstOrThrow();
    const hours = SCAN_WINDOW_HOURS_MAX * 3_600_000;
    expect(list).toMatchObject({
      timeZone: section.timezone,
      opensAt: new Date(new Date(section.starts_at).getTime() - hours).toISOString(),
      closesAt: new Date(new Date(section.ends_at).getTime() + hours).toISOString(),
    });
    expect(
      (await e.http.get(`tickets/offline-list?eventId=${ev.eventId}`, e.teachers[1]?.token)).statusCode,
    ).toBe(403);
  });

  it('two doors admitted the same ticket offline: the first synced stands, the second is a duplicate the admin sees; a resent batch changes nothing', async () => {
    const first = await sync(teacher(), 'door-A', [
      { ticketId: codes[0] ?? '', clientNonce: 'offline-A-0001' },
      { ticketId: 'not-a-ticket-code', clientNonce: 'offline-A-0002' },
    ]);
    expect(first.data.results.map((result) => result.outcome)).toEqual(['admitted', 'invalid']);
    const second = await sync(e.admin.token, 'door-B', [
      { ticketId: codes[0] ?? '', clientNonce: 'offline-B-0001' },
      { ticketId: codes[1] ?? '', clientNonce: 'offline-B-0002' },
    ]);
    expect(second.data.results.map((result) => result.outcome)).toEqual(['duplicate', 'admitted']);
    const again = await sync(e.admin.token, 'door-B', [
      { ticketId: codes[0] ?? '', clientNonce: 'offline-B-0001' },
      { ticketId: codes[1] ?? '', clientNonce: 'offline-B-0002' },
    ]);
    expect(again).toEqual(second);
    const door = await get<DoorState>(`tickets/door?eventId=${ev.eventId}`, e.admin.token);
    expect(door).toMatchObject({ expected: 2, admitted: 2, toCome: 0 });
    expect(door.duplicates).toHaveLength(1);
    expect(door.duplicates[0]).toMatchObject({
      deviceId: 'door-B',
      ticket: { id: (await ticketIds([codes[0]]))[0], scannedByName: expect.any(String) },
    });
  });
});

describe('manual check-in by ticket id and the door’s window (issue 35)', () => {
  let ev: KindEvent;
  let ids: number[];
  let codes: string[];
  const HOUR = 3_600_000;
  const teacher = () => e.teachers[0]?.token ?? '';
  /** Moves the event's one section to start `hours` from now, two hours long (the window follows it). */
  const placeEvent = async (hours: number) => {
    const start = new Date(Date.now() + hours * HOUR);
    await t.db
      .updateTable('sections')
      .set({ starts_at: start, ends_at: new Date(start.getTime() + 2 * HOUR) })
      .where('event_id', '=', ev.eventId)
      .execute();
  };
  const setWindow = (before: number, after: number) =>
    post(`events/update?id=${ev.eventId}`, e.admin.token, {
      scanOpensHoursBefore: before,
      scanClosesHoursAfter: after,
    });
  const checkIn = (token: string, id: number, status = 200) =>
    post<CheckInResponse>('tickets/check-in', token, { eventId: ev.eventId, id }, status);
  const sync = (code: string, nonce: string, scannedAt: Date) =>
    post<SyncScansResponse>('tickets/sync-scans', teacher(), {
      eventId: ev.eventId,
      deviceId: 'door-window',
      scans: [{ ticketId: code, clientNonce: nonce, scannedAt: scannedAt.toISOString() }],
    });
  const undo = async () => {
    for (const id of ids) await e.http.post('tickets/undo-scan', e.admin.token, { id }); // 409 for one not admitted
  };

  beforeAll(async () => {
    // The default window: a day either side of the event, here 40 days ahead.
    ev = await kindEvent(t, e, 'ticketed', 'Winter concert', { usersPerSlot: 50, guestAllowance: 1 }, [
      { date: daysAhead(40), start: '18:00', end: '20:00', location: 'Hall' },
    ]);
    const slot = (
      await t.db.selectFrom('slots').select('id').where('event_id', '=', ev.eventId).executeTakeFirstOrThrow()
    ).id;
    await booked({ http: e.http, eventId: ev.eventId }, e.parent.token, [
      { slotId: slot, studentId: child(0).id, guests: 1 },
    ]);
    codes = (
      await get<EventTicketResponse>(
        `tickets/get-event-ticket?eventId=${ev.eventId}&userId=${child(0).id}`,
        e.parent.token,
      )
    ).data.tickets.map((ticket) => ticket.ticketId);
    ids = await ticketIds(codes);
    await post(`events/update-can-scan-user-ids?id=${ev.eventId}`, e.admin.token, {
      canScanUserIds: [e.teachers[0]?.id],
    });
  });

  it('the admin’s settings carry the window: a day either side by default; out of range is a 422 naming the field', async () => {
    const { event } = await get<{ event: EventDetail }>(`events/view?id=${ev.eventId}`, e.admin.token);
    expect(event).toMatchObject({ scanOpensHoursBefore: 24, scanClosesHoursAfter: 24 });
    const bad = await e.http.post(`events/update?id=${ev.eventId}`, e.admin.token, {
      scanOpensHoursBefore: SCAN_WINDOW_HOURS_MAX + 1,
      scanClosesHoursAfter: -1,
    });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors)).toEqual(['scanOpensHoursBefore', 'scanClosesHoursAfter']);
    const created = await post<{ id: number }>('events/create', e.admin.token, {
      name: 'Spring concert',
      eventTypeId: e.types.ticketed,
      scanOpensHoursBefore: 2,
      scanClosesHoursAfter: 1,
    });
    const made = await get<{ event: EventDetail }>(`events/view?id=${created.id}`, e.admin.token);
    expect(made.event).toMatchObject({ scanOpensHoursBefore: 2, scanClosesHoursAfter: 1 });
  });

  it('before the window a scan, a manual check-in and an offline sync are refused, saying when scanning opens', async () => {
    const opens = /^Scanning for this event opens \w{3} \d{1,2} \w{3} \d{4}, 18:00\.$/;
    const scanned = await scan(teacher(), codes[0] ?? '', { eventId: ev.eventId });
    expect(scanned.data).toMatchObject({ success: false, alreadyScanned: false });
    expect(scanned.data.message).toMatch(opens);
    expect((await validate(teacher(), codes[0] ?? '', ev.eventId)).data).toEqual({
      valid: false,
      message: scanned.data.message,
    });
    const manual = await checkIn(teacher(), ids[0] ?? 0);
    expect(manual.data).toMatchObject({ success: false, message: scanned.data.message });
    // A device that claims the event's own evening cannot move its scan there: it cannot have scanned
    // after the server heard of it.
    const synced = await sync(codes[0] ?? '', 'window-early-1', new Date(Date.now() + 40 * 24 * HOUR));
    expect(synced.data.results[0]).toMatchObject({ outcome: 'invalid', message: scanned.data.message });
    const door = await get<DoorState>(`tickets/door?eventId=${ev.eventId}`, teacher());
    expect(door.admitted).toBe(0);
  });

  it('inside the window (the admin opened it earlier) the same three admit', async () => {
    await setWindow(SCAN_WINDOW_HOURS_MAX, 24);
    expect((await scan(teacher(), codes[0] ?? '', { eventId: ev.eventId })).data.success).toBe(true);
    await undo();
    expect((await checkIn(teacher(), ids[0] ?? 0)).data).toMatchObject({
      success: true,
      message: TICKET_TEXT.scanned,
    });
    await undo();
    const synced = await sync(codes[0] ?? '', 'window-in-1', new Date());
    expect(synced.data.results[0]?.outcome).toBe('admitted');
    await undo();
    await setWindow(24, 24);
  });

  it('after the window: refused, saying when scanning closed; an offline scan made inside it still counts, if it comes within the grace', async () => {
    // The event ended 28 hours ago: the window closed 4 hours ago.
    await placeEvent(-30);
    const closed = /^Scanning for this event closed \w{3} \d{1,2} \w{3} \d{4}, \d{2}:\d{2}\.$/;
    const scanned = await scan(teacher(), codes[0] ?? '', { eventId: ev.eventId });
    expect(scanned.data).toMatchObject({ success: false });
    expect(scanned.data.message).toMatch(closed);
    expect((await checkIn(teacher(), ids[0] ?? 0)).data.message).toBe(scanned.data.message);
    expect((await sync(codes[0] ?? '', 'window-late-1', new Date())).data.results[0]).toMatchObject({
      outcome: 'invalid',
      message: scanned.data.message,
    });
    // Scanned offline during the event, synced now: admitted.
    const during = new Date(Date.now() - 29 * HOUR);
    expect((await sync(codes[1] ?? '', 'window-late-2', during)).data.results[0]?.outcome).toBe('admitted');
    // The same claim two days after the window closed is past what an offline door can plausibly be.
    await placeEvent(-80);
    const stale = await sync(codes[0] ?? '', 'window-late-3', new Date(Date.now() - 79 * HOUR));
    expect(stale.data.results[0]).toMatchObject({ outcome: 'invalid' });
    expect(stale.data.results[0]?.message).toMatch(closed);
    await undo();
    await placeEvent(0);
  });

  it('a manual check-in by ticket id: a designated scanner and the admin may; the holder, another teacher may not; a ticket of another event is not one', async () => {
    await placeEvent(1);
    const first = await checkIn(teacher(), ids[1] ?? 0);
    expect(first.data).toEqual({
      success: true,
      message: TICKET_TEXT.scanned,
      alreadyScanned: false,
      ticket: expect.objectContaining({ id: ids[1], guestIndex: 1, scanned: true }),
    });
    const again = await checkIn(e.admin.token, ids[1] ?? 0);
    expect(again.data).toMatchObject({ success: false, alreadyScanned: true });
    for (const answer of [first, again]) {
      const text = JSON.stringify(answer);
      for (const secret of [...codes, child(0).email, TEST_APP_URL]) expect(text).not.toContain(secret);
    }
    for (const token of [e.parent.token, child(0).token, e.teachers[1]?.token ?? ''])
      expect((await checkIn(token, ids[0] ?? 0, 403)) as unknown).toEqual({
        message: TICKET_TEXT.notScanner,
      });
    // The concert's ticket named at this door: not a ticket for this event, and no holder named.
    const concertId = (
      await ticketIds([(await ticketsOf(e.admin.token, e.otherChild.id)).data.tickets[0]?.ticketId])
    )[0];
    const foreign = await checkIn(teacher(), concertId ?? 0);
    expect(foreign.data).toEqual({ success: false, message: TICKET_TEXT.unknown, alreadyScanned: false });
    expect(
      (await e.http.post('tickets/check-in', teacher(), { eventId: ev.eventId, id: 'x' })).statusCode,
    ).toBe(422);
  });
});
