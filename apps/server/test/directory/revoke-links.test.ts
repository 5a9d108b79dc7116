import type { BookingPage } from '@parley/domain/booking';
import { ACCESS_TEXT, SERVER_TEXT } from '@parley/domain/messages';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueEventLinks } from '../../src/modules/tokens/tokens.repository';
import { entriesOf, withAction } from '../audit/audit-helpers';
import {
  booked,
  bookingPage,
  type Evening,
  evening,
  freeSlots,
  quickMember,
} from '../booking/booking-helpers';
import { createTestApp, type TestApp } from '../test-app';
import { expectStatus } from './directory-helpers';

// Issue 11: an admin revokes a family's personal booking links (POST users/revoke-booking-links { id }).
// A revoked link answers exactly as a link that never existed; the family's sessions and other families'
// links are untouched; another school's admin gets 404 and changes nothing.

let t: TestApp;
let e: Evening;
let other: Evening;

beforeAll(async () => {
  t = await createTestApp();
  e = await evening(t, { quick: true, schoolName: 'Revoke Academy' });
  other = await evening(t, { quick: true, schoolName: 'Elsewhere Academy' });
});
afterAll(() => t.close());

const links = async (userIds: number[]) =>
  issueEventLinks(t.db, { schoolId: e.schoolId, eventId: e.eventId, userIds });

const withLink = (path: string, link: string) =>
  t.app.inject({ method: 'GET', url: `/api/${path}`, headers: { 'x-booking-link': link } });

/** What a link answers on the booking page and the link-only booking view. */
async function answers(link: string) {
  const view = await withLink(`events/book-event?code=${e.code}`, link);
  const byId = await withLink(`events/booking-view?eventId=${e.eventId}`, link);
  return {
    page: { status: view.statusCode, viewer: (view.json() as BookingPage).viewer },
    byId: { status: byId.statusCode, body: byId.json() as unknown },
  };
}

const revoke = (token: string | undefined, id: unknown) =>
  e.http.post('users/revoke-booking-links', token, { id });

const body = (response: LightMyRequestResponse) => ({ status: response.statusCode, body: response.json() });

describe('users/revoke-booking-links', () => {
  it("ends a parent's personal links: they answer as an unknown link; sessions and other links go on", async () => {
    const issued = await links([e.parent.id, e.otherParent.id]);
    // Two mails, two links: both end.
    const second = (await links([e.parent.id])).get(e.parent.id) ?? '';
    const mine = issued.get(e.parent.id) ?? '';
    const theirs = issued.get(e.otherParent.id) ?? '';
    const before = await answers(mine);
    expect(before.page.viewer).toMatchObject({ userId: e.parent.id, viaLink: true });
    expect(before.byId.status).toBe(200);

    const done = expectStatus(await revoke(e.admin.token, e.parent.id), 200);
    expect(done).toEqual({ id: e.parent.id, revoked: 2, message: ACCESS_TEXT.linksRevoked(2) });

    const unknown = await answers('x'.repeat(43));
    expect(unknown.page).toEqual({ status: 200, viewer: null });
    expect(unknown.byId.status).toBe(401);
    expect(await answers(mine)).toEqual(unknown);
    expect(await answers(second)).toEqual(unknown);
    // The parent's own sign-in and the other family's link are untouched.
    expect((await e.http.get('users/data', e.parent.token)).statusCode).toBe(200);
    expect((await answers(theirs)).page.viewer).toMatchObject({ userId: e.otherParent.id });
    // Nothing left to revoke; a new mail brings a new link that works.
    expect(expectStatus(await revoke(e.admin.token, e.parent.id), 200)).toMatchObject({
      revoked: 0,
      message: ACCESS_TEXT.linksRevoked(0),
    });
    const fresh = (await links([e.parent.id])).get(e.parent.id) ?? '';
    expect((await answers(fresh)).page.viewer).toMatchObject({ userId: e.parent.id });
    // Each revocation is in the person's audit trail, with the count.
    const entries = withAction(
      await entriesOf(e.http, e.admin.token, 'person', e.parent.id),
      'person.links_revoked',
    );
    expect(entries.map((entry) => [entry.actor.id, entry.detail.links])).toEqual([
      [e.admin.id, 0],
      [e.admin.id, 2],
    ]);
  });

  it('ends the links of a person removed but kept for their bookings', async () => {
    const parent = await quickMember(t, e.admin.token, 'parent');
    const link = (await links([parent.id])).get(parent.id) ?? '';
    expect((await answers(link)).page.viewer).toMatchObject({ userId: parent.id });
    // A booking keeps the account (deactivated) when the person is removed.
    const taught = { subjectId: e.subjects[0] ?? 0, teacherId: e.teachers[0]?.id ?? 0 };
    const child = await quickMember(t, e.admin.token, 'student', {
      parentIds: [parent.id],
      subjects: [taught],
    });
    const slot = freeSlots((await bookingPage(e, parent.token, e.code)).grid, e.teachers[0]?.id ?? 0)[0] ?? 0;
    await booked(e, parent.token, [{ slotId: slot, studentId: child.id, subjectId: e.subjects[0] ?? 0 }]);
    expectStatus(await e.http.post(`users/delete?id=${parent.id}&role=parent`, e.admin.token), 200);
    expect((await answers(link)).page.viewer).toBeNull();
    // Ended, not merely refused while the account is inactive: reactivating them does not bring it back.
    const live = await t.db
      .selectFrom('auth_tokens')
      .select('id')
      .where('user_id', '=', parent.id)
      .where('kind', '=', 'event')
      .where('used_at', 'is', null)
      .execute();
    expect(live).toEqual([]);
  });

  it("ends a student's links too", async () => {
    const child = e.children[0]?.id ?? 0;
    const link = (await links([child])).get(child) ?? '';
    expect((await answers(link)).byId.status).toBe(200);
    expect(expectStatus(await revoke(e.admin.token, child), 200)).toMatchObject({ revoked: 1 });
    expect((await answers(link)).byId.status).toBe(401);
  });

  it('is for admins of the same school only: 404 for another school, a teacher or a missing id', async () => {
    const link = (await links([e.otherParent.id])).get(e.otherParent.id) ?? '';
    const notFound = { status: 404, body: { message: 'Person not found.' } };
    expect(body(await revoke(other.admin.token, e.otherParent.id))).toMatchObject(notFound);
    expect(body(await revoke(e.admin.token, e.teachers[0]?.id))).toMatchObject(notFound);
    expect(body(await revoke(e.admin.token, 2_000_000))).toMatchObject(notFound);
    expect(body(await revoke(e.parent.token, e.otherParent.id))).toMatchObject({
      status: 403,
      body: { message: SERVER_TEXT.forbidden },
    });
    expect((await revoke(undefined, e.otherParent.id)).statusCode).toBe(401);
    expect(body(await revoke(e.admin.token, 'x'))).toMatchObject({
      status: 422,
      body: { errors: { id: expect.any(Array) } },
    });
    // None of those changed anything: the link still opens the page.
    expect((await answers(link)).page.viewer).toMatchObject({ userId: e.otherParent.id });
  });

  it('is documented in OpenAPI with its body', async () => {
    const doc = (await t.app.inject({ url: '/api/docs/json' })).json() as {
      paths: Record<
        string,
        Record<string, { requestBody?: { content: Record<string, { schema: unknown }> } }>
      >;
    };
    const op = doc.paths['/api/users/revoke-booking-links']?.post;
    expect(op?.requestBody?.content['application/json']?.schema).toMatchObject({
      required: ['id'],
      properties: { id: { type: 'integer' } },
    });
  });
});
