import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addRecipients,
  booked,
  bookingPage,
  type Evening,
  evening,
  freeSlots,
  quickMember,
} from '../booking/booking-helpers';
import { expectStatus, type Member } from '../directory/directory-helpers';
import { recipientCountsOf, recipientsOf } from '../events/events-helpers';
import { mailCount } from '../mailbox';
import { createTestApp, type TestApp } from '../test-app';

// "Who hasn't booked" asks it of families, not people (issue 36, point 12): when one parent books, the
// other parent of the child has booked too — on the recipients list, in its count, and for a reminder to
// those who have not booked.

let t: TestApp;
let e: Evening;
let partner: Member;
beforeAll(async () => {
  t = await createTestApp();
  e = await evening(t, { quick: true, travelMinutes: 0 });
  partner = await quickMember(t, e.admin.token, 'parent', { studentIds: [e.children[0]?.id] });
  await addRecipients(e, e.eventId, [e.parent.id, partner.id, e.otherParent.id]);
  const grid = (await bookingPage(e, e.parent.token, e.code)).grid;
  const slotId = freeSlots(grid, e.teachers[0]?.id ?? 0)[0] ?? 0;
  await booked(e, e.parent.token, [{ slotId, studentId: e.children[0]?.id, subjectId: e.subjects[0] }]);
});
afterAll(() => t.close());

describe('who has not booked: families', () => {
  it('lists the partner of a parent who booked as booked, in the same family', async () => {
    const list = await recipientsOf(e.http, e.admin.token, e.eventId);
    const of = (id: number) => list.items.find((recipient) => recipient.id === id);
    expect(of(e.parent.id)?.booked).toBe(true);
    expect(of(partner.id)?.booked).toBe(true);
    expect(of(e.otherParent.id)?.booked).toBe(false);
    expect(of(partner.id)?.familyId).toBe(of(e.parent.id)?.familyId);
    expect(of(e.otherParent.id)?.familyId).not.toBe(of(e.parent.id)?.familyId);
    // Counted as families: two people of one family booked, one family has not.
    expect(list.total).toBe(3);
    expect(await recipientCountsOf(e.http, e.admin.token, e.eventId)).toEqual({
      people: 3,
      bookedPeople: 2,
      notBookedFamilies: 1,
    });
    const notBooked = await recipientsOf(e.http, e.admin.token, e.eventId, { notBooked: 1 });
    expect(notBooked.items.map((recipient) => recipient.id)).toEqual([e.otherParent.id]);
    expect(notBooked.total).toBe(1);
  });

  it('reminds only the families that have not booked', async () => {
    const before = await mailCount(t.db, partner.email);
    const res = await e.http.post(`message-types/send?eventId=${e.eventId}`, e.admin.token, {
      messageTypeName: 'reminder',
      audience: 'notBooked',
    });
    expect(expectStatus(res, 200)).toEqual({ sent: 1, message: 'Reminder sent to 1 recipient.' });
    expect(await mailCount(t.db, partner.email)).toBe(before);
  });

  it('counts each of a booked family as booked: the child booked for, a sibling, their parents; not another family', async () => {
    // The children as recipients too: the one booked for, their brother or sister, and another family's.
    const [bookedFor, sibling] = e.children;
    await addRecipients(e, e.eventId, [bookedFor?.id ?? 0, sibling?.id ?? 0, e.otherChild.id]);
    const emails = [e.parent, partner, bookedFor, sibling, e.otherParent, e.otherChild].map(
      (m) => m?.email ?? '',
    );
    const before = await Promise.all(emails.map((email) => mailCount(t.db, email)));
    const res = await e.http.post(`message-types/send?eventId=${e.eventId}`, e.admin.token, {
      messageTypeName: 'reminder',
      audience: 'notBooked',
    });
    expect(expectStatus(res, 200)).toEqual({ sent: 2, message: 'Reminder sent to 2 recipients.' });
    const after = await Promise.all(emails.map((email) => mailCount(t.db, email)));
    // Only the other family, its parent and its child, were reminded.
    expect(after.map((count, index) => count - (before[index] ?? 0))).toEqual([0, 0, 0, 0, 1, 1]);
  });
});
