import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/database';
import { asSchool, asSystem } from '../../src/db/scope';
import * as devMailbox from '../../src/mail/dev-mailbox.repository';
import * as messages from '../../src/mail/messages.repository';
import * as outbox from '../../src/mail/outbox.repository';
import * as accounts from '../../src/modules/accounts/accounts.repository';
import * as audit from '../../src/modules/audit/audit.repository';
import * as billing from '../../src/modules/billing/billing.repository';
import * as booking from '../../src/modules/booking/booking.repository';
import * as bulkAdd from '../../src/modules/bulk-add/bulk-add.repository';
import * as eventTypes from '../../src/modules/events/event-types.repository';
import * as events from '../../src/modules/events/events.repository';
import * as jobs from '../../src/modules/jobs/jobs.repository';
import * as calls from '../../src/modules/live/calls.repository';
import * as timing from '../../src/modules/live/timing.repository';
import * as loadTest from '../../src/modules/load-test/load-test.repository';
import * as people from '../../src/modules/people/people.repository';
import * as twoFactor from '../../src/modules/profile/two-factor.repository';
import * as reminders from '../../src/modules/reminders/day-before.repository';
import * as subjects from '../../src/modules/subjects/subjects.repository';
import * as tickets from '../../src/modules/tickets/tickets.repository';
import * as tokens from '../../src/modules/tokens/tokens.repository';
import * as users from '../../src/modules/users/users.repository';
import * as push from '../../src/push/push.repository';
import { createTestApp, type TestApp } from '../test-app';
import { newInvoice, type School, schoolOfEverything, schoolTables } from './two-schools';

// The first wall (decision 016): a repository function that takes a school acts within it. Row-level
// security is the second wall, so every call here runs in the system scope, where it does not narrow: a
// function that ignores its school fails here even though a signed-in request would be saved by the policy.
//
// Two schools hold a row of every kind. Each exported repository function has a case, called with school
// A and the ids of school B's rows:
// - a read answers exactly what the same call answers under school A's row-level security (the first wall
//   gives what the second would), and the same the other way round (B's school, A's ids); called with B's
//   own school, it finds something (its ids are real);
// - a write leaves B's rows byte-identical (a snapshot of every school table), makes no row point into
//   another school, answers what it answers under A's row-level security, and, called with B's own
//   school, does change B's rows (the case could fail).
// Replacing functions are called with an empty list: their delete alone (a refused insert after it would
// roll it back unseen). A function that takes no school says why; one that is not a query but part of
// another's statement (its SQL text, its values) names that function, whose case covers it. An export
// without a case, or a repository module this file does not import, fails the completeness test.

type Ctx = { db: Db; s: School; o: School };
type Case =
  /** `control`: why the call with B's own school is not expected to find anything. */
  | { read: (c: Ctx) => Promise<unknown>; control?: string }
  /**
   * `control`: why the call with B's own school leaves B's rows as they are; `result: false` for random
   * answers; `refused`: what refuses the call with A's school and B's ids (the insert of a foreign id).
   */
  | { write: (c: Ctx) => Promise<unknown>; control?: string; result?: false; refused?: string }
  | { noSchool: string }
  /** Not a query: part of another function's statement (its SQL text or values), covered by that case. */
  | { partOf: string };

const soon = () => new Date(Date.now() + 86_400_000);
const email = () => `scoping-${randomUUID()}@example.org`;
const worker = 'the workers’ and the operator’s own queries (system scope), by row id';
const byUser = 'by the signed-in user’s own id (their account is one school’s)';
// A parent's party in a booking (booker.ts), and a change's messages: a mail naming B's school (the
// statement writes into the school it is given) and a push to B's parent.
const parentOf = (o: School) => ({ userId: o.parent.id, parentId: o.parent.id, studentId: null });
const someMessages = (o: School) => ({
  mails: [{ schoolId: o.schoolId, to: o.parent.email, subject: 'S', text: 'T', html: 'H', links: [] }],
  pushes: [{ userIds: [o.parent.id], payload: { t: 1 }, ttlSeconds: 60, urgency: 'high' as const }],
});

const repositories: Record<string, [Record<string, unknown>, Record<string, Case>]> = {
  'mail/dev-mailbox': [
    devMailbox,
    {
      keepInDevMailbox: { noSchool: 'the dev mailbox is the installation’s, never a school’s' },
      listDevMail: { noSchool: 'the dev mailbox is the installation’s, never a school’s' },
      findDevMail: { noSchool: 'the dev mailbox is the installation’s, never a school’s' },
    },
  ],
  'mail/outbox': [
    outbox,
    {
      enqueueMail: {
        write: ({ db, s, o }) =>
          outbox.enqueueMail(db, {
            schoolId: s.schoolId,
            to: o.parent.email,
            subject: 'S',
            text: 'T',
            html: 'H',
            links: [],
          }),
      },
      enqueueMails: {
        write: ({ db, s, o }) =>
          outbox.enqueueMails(db, [
            { schoolId: s.schoolId, to: o.parent.email, subject: 'S', text: 'T', html: 'H', links: [] },
          ]),
      },
      deliverableMails: { partOf: 'mail/outbox.enqueueMails' },
      claimDueMail: { noSchool: worker },
      claimDueIds: { noSchool: worker },
      markSent: { noSchool: worker },
      markFailedAttempt: { noSchool: worker },
      releaseLeases: { noSchool: worker },
      outboxBacklog: { noSchool: 'metrics of the whole installation' },
    },
  ],
  'mail/messages': [
    messages,
    {
      enqueueMessages: {
        write: ({ db, s, o }) => messages.enqueueMessages(db, s.schoolId, someMessages(o)),
      },
      messageCtes: { partOf: 'modules/booking.sendMessages' },
      messageParameters: { partOf: 'modules/booking.sendMessages' },
    },
  ],
  'modules/accounts': [
    accounts,
    {
      createSchool: { noSchool: 'makes a school' },
      findSchoolByVerifyTokenHash: { noSchool: 'finds the school by its verification link' },
      findSchool: { read: ({ db, s }) => accounts.findSchool(db, s.schoolId) },
      markSchoolVerified: {
        write: ({ db, s }) => accounts.markSchoolVerified(db, s.schoolId),
        control: 'B is verified already (the first verification is kept)',
      },
      updateSchool: { write: ({ db, s }) => accounts.updateSchool(db, s.schoolId, { name: 'Renamed' }) },
    },
  ],
  'modules/audit': [
    audit,
    {
      actorSnapshot: { read: ({ db, s, o }) => audit.actorSnapshot(db, s.schoolId, o.admin.id) },
      insertEntries: {
        write: ({ db, s, o }) =>
          audit.insertEntries(db, [
            {
              school_id: s.schoolId,
              actor_id: s.admin.id,
              actor_name: 'A',
              actor_email: s.admin.email,
              action: 'person.update',
              subject_type: 'person',
              subject_id: o.parent.id,
              subject_label: 'P',
              detail: '{}',
            },
          ]),
      },
      listEntries: { read: ({ db, s, o }) => audit.listEntries(db, s.schoolId, { eventId: o.eventId }) },
      existsInSchool: {
        read: ({ db, s, o }) => audit.existsInSchool(db, s.schoolId, { personId: o.parent.id }),
      },
    },
  ],
  'modules/billing': [
    billing,
    {
      startTrial: {
        write: ({ db, s }) => billing.startTrial(db, s.schoolId, 30),
        control: 'B has its billing row (a school keeps its first one)',
      },
      findBilling: { read: ({ db, s }) => billing.findBilling(db, s.schoolId, 30, true) },
      setPlan: { write: ({ db, s }) => billing.setPlan(db, s.schoolId, 'premium') },
      updateDetails: {
        write: ({ db, s }) =>
          billing.updateDetails(db, s.schoolId, {
            billing_name: 'X',
            address: null,
            tax_number: null,
            finance_email: null,
          }),
      },
      setStripeCustomer: {
        write: ({ db, s }) => billing.setStripeCustomer(db, s.schoolId, `cus_new_${randomUUID()}`),
      },
      extendPaidUntil: { write: ({ db, s }) => billing.extendPaidUntil(db, s.schoolId, soon()) },
      usage: { read: ({ db, s }) => billing.usage(db, s.schoolId) },
      listInvoices: { read: ({ db, s }) => billing.listInvoices(db, s.schoolId) },
      findInvoice: { read: ({ db, s, o }) => billing.findInvoice(db, s.schoolId, o.invoiceId) },
      openInvoice: { read: ({ db, s }) => billing.openInvoice(db, s.schoolId) },
      insertInvoice: {
        write: async ({ db, s }) =>
          billing.insertInvoice(db, newInvoice(s.schoolId, await billing.nextNumber(db, 'test-seller'))),
        result: false,
      },
      markInvoicePaid: {
        write: ({ db, s, o }) => billing.markInvoicePaid(db, s.schoolId, o.invoiceId, 'transfer', new Date()),
      },
      schoolExists: { read: ({ db, s }) => billing.schoolExists(db, s.schoolId) },
      findInvoiceByNumber: { noSchool: 'the operator’s (system scope): an invoice number names its school' },
      nextNumber: { noSchool: 'the seller’s counter, not a school’s' },
      invoiceBySession: { noSchool: 'Stripe’s webhook: the session names its school' },
      listSchoolsWithBilling: { noSchool: 'the operator’s list of every school' },
      recordStripeEvent: { noSchool: 'Stripe’s event ids' },
      schoolByStripeCustomer: { noSchool: 'Stripe’s webhook: the customer names its school' },
    },
  ],
  'modules/booking': [
    booking,
    {
      findEventByCode: {
        noSchool: 'by the event’s code (a booking page found by it), which names its school',
      },
      findEventById: { read: ({ db, s, o }) => booking.findEventById(db, s.schoolId, o.eventId) },
      eventContext: { read: ({ db, s, o }) => booking.eventContext(db, s.schoolId, o.eventId) },
      peekEventAndParty: {
        read: ({ db, s, o }) => booking.peekEventAndParty(db, s.schoolId, o.eventId, parentOf(o), [o.slotId]),
      },
      openChange: {
        read: ({ db, s, o }) =>
          booking.openChange(db, s.schoolId, o.eventId, parentOf(o), null, [o.slotId, o.freeSlotId]),
      },
      lockParty: { read: ({ db, s, o }) => booking.lockParty(db, s.schoolId, o.parent.id) },
      findEventLink: { noSchool: 'by the personal link’s token, which names its school' },
      findUser: { read: ({ db, s, o }) => booking.findUser(db, s.schoolId, o.parent.id) },
      rolesOf: { read: ({ db, s, o }) => booking.rolesOf(db, s.schoolId, o.parent.id) },
      childrenWithTeachers: {
        read: ({ db, s, o }) => booking.childrenWithTeachers(db, s.schoolId, { parentId: o.parent.id }),
      },
      childIds: { read: ({ db, s, o }) => booking.childIds(db, s.schoolId, o.parent.id) },
      eventTeachers: { read: ({ db, s, o }) => booking.eventTeachers(db, s.schoolId, o.eventId) },
      gridSlots: {
        read: ({ db, s, o }) =>
          booking.gridSlots(db, s.schoolId, o.eventId, {
            ofSlots: [o.slotId],
            also: [o.otherSlot.teacher_id ?? 0],
          }),
      },
      slotLabels: {
        read: ({ db, s, o }) => booking.slotLabels(db, s.schoolId, o.eventId),
      },
      lostRacePlaces: {
        read: ({ db, s, o }) =>
          booking.lostRacePlaces(db, s.schoolId, o.eventId, parentOf(o), [o.slotId, o.freeSlotId]),
      },
      partyBookings: {
        read: ({ db, s, o }) => booking.partyBookings(db, s.schoolId, o.eventId, parentOf(o)),
      },
      bookingsById: {
        read: ({ db, s, o }) => booking.bookingsById(db, s.schoolId, o.eventId, [o.bookingId]),
      },
      lockSlotsInOrder: {
        read: ({ db, s, o }) => booking.lockSlotsInOrder(db, s.schoolId, [o.slotId, o.freeSlotId]),
      },
      sendMessages: {
        write: ({ db, s, o }) => booking.sendMessages(db, s.schoolId, [o.slotId], someMessages(o)),
      },
      lockChildren: {
        read: ({ db, s, o }) =>
          booking.lockChildren(
            db,
            s.schoolId,
            o.children.map((child) => child.id),
          ),
      },
      childrenBookedElsewhere: {
        // B's booking is the parent's: asked as the other parent, it is another party's.
        read: ({ db, s, o }) =>
          booking.childrenBookedElsewhere(
            db,
            s.schoolId,
            o.eventId,
            o.children.map((child) => child.id),
            o.otherParent.id,
          ),
      },
      insertAndReadBookings: {
        // A row naming B's school, called with A's: it must not be written into the school the row names.
        write: ({ db, s, o }) =>
          booking.insertAndReadBookings(db, s.schoolId, o.eventId, parentOf(o), [
            {
              school_id: o.schoolId,
              event_id: o.eventId,
              slot_id: o.otherSlot.id,
              teacher_id: o.otherSlot.teacher_id,
              starts_at: o.otherSlot.starts_at,
              ends_at: o.otherSlot.ends_at,
              parent_id: o.parent.id,
              student_id: o.children[0]?.id ?? 0,
              subject_id: o.subjects[1] ?? null,
              guests: 0,
              gown_size: null,
              booked_by: o.parent.id,
              idempotency_key: randomUUID(),
            },
          ]),
        result: false,
        refused: 'a row of another school than the one given: a null in a NOT NULL column',
      },
      cancelBookingRows: {
        write: ({ db, s, o }) => booking.cancelBookingRows(db, s.schoolId, [o.bookingId]),
      },
      setGownSize: { write: ({ db, s, o }) => booking.setGownSize(db, s.schoolId, o.bookingId, 'L') },
      changeGuests: {
        write: ({ db, s, o }) =>
          booking.changeGuests(db, s.schoolId, o.concertBookingId, { guests: 1, gownSize: 'M' }),
      },
      markConfirmed: { write: ({ db, s, o }) => booking.markConfirmed(db, s.schoolId, o.bookingId) },
      teacherSlots: {
        read: ({ db, s, o }) => booking.teacherSlots(db, s.schoolId, o.eventId, o.teachers[0]?.id ?? 0),
      },
      openEventsFor: {
        read: ({ db, s, o }) => booking.openEventsFor(db, s.schoolId, o.parent.id, 'parent', new Date()),
      },
      recipientAccess: {
        read: ({ db, s, o }) => booking.recipientAccess(db, s.schoolId, o.eventId, o.parent.id),
      },
      findScheduleTeacher: {
        read: ({ db, s, o }) => booking.findScheduleTeacher(db, s.schoolId, o.teachers[0]?.id ?? 0),
      },
    },
  ],
  'modules/bulk-add': [
    bulkAdd,
    {
      emailOwners: {
        noSchool: 'which school owns each email: the one read across schools (parley_email_schools)',
      },
      upsertPeople: {
        // The id it answers for B's email (none); the new person's id differs from run to run.
        write: async ({ db, s, o }) =>
          (
            await bulkAdd.upsertPeople(db, s.schoolId, [
              { email: o.parent.email, firstName: 'Taken', lastName: 'Over', title: null },
              { email: email(), firstName: 'New', lastName: 'Person', title: null },
            ])
          ).get(o.parent.email) ?? null,
      },
      grantRoles: {
        write: ({ db, s, o }) =>
          bulkAdd.grantRoles(db, s.schoolId, [{ userId: o.parent.id, role: 'teacher' }]),
        refused: 'idInSchool: a NOT NULL column',
      },
      linkTeacherSubjects: {
        write: ({ db, s, o }) =>
          bulkAdd.linkTeacherSubjects(db, s.schoolId, [
            { teacherId: o.teachers[1]?.id ?? 0, subjectId: o.subjects[0] ?? 0 },
          ]),
        refused: 'a composite foreign key',
      },
      linkFamilies: {
        write: ({ db, s, o }) =>
          bulkAdd.linkFamilies(db, s.schoolId, [
            { parentId: o.otherParent.id, studentId: o.children[0]?.id ?? 0 },
          ]),
        refused: 'a composite foreign key',
      },
      insertInviteTokens: {
        write: ({ db, s, o }) =>
          bulkAdd.insertInviteTokens(db, s.schoolId, [
            { userId: o.parent.id, role: 'parent', hash: randomUUID(), expiresAt: soon() },
          ]),
        refused: 'idInSchool: a NOT NULL column',
      },
      insertMails: {
        write: ({ db, s, o }) =>
          bulkAdd.insertMails(db, [
            { schoolId: s.schoolId, to: o.parent.email, subject: 'S', text: 'T', html: 'H', links: [] },
          ]),
      },
    },
  ],
  'modules/events/event-types': [
    eventTypes,
    {
      createDefaultEventTypes: {
        write: ({ db, s }) => eventTypes.createDefaultEventTypes(db, s.schoolId),
        control: 'B has its default types already',
      },
      listEventTypes: { read: ({ db, s }) => eventTypes.listEventTypes(db, s.schoolId) },
      findEventType: { read: ({ db, s, o }) => eventTypes.findEventType(db, s.schoolId, o.types.booking) },
    },
  ],
  'modules/events': [
    events,
    {
      insertEvent: {
        write: ({ db, s, o }) =>
          events.insertEvent(db, {
            school_id: s.schoolId,
            event_type_id: o.types.booking,
            name: 'New',
            code: randomUUID(),
          }),
        result: false,
        refused: 'a composite foreign key',
      },
      findEvent: { read: ({ db, s, o }) => events.findEvent(db, s.schoolId, o.eventId) },
      lockEvent: { read: ({ db, s, o }) => events.lockEvent(db, s.schoolId, o.eventId) },
      listEvents: { read: ({ db, s }) => events.listEvents(db, s.schoolId) },
      updateEvent: {
        write: ({ db, s, o }) => events.updateEvent(db, s.schoolId, o.eventId, { name: 'Renamed' }),
      },
      deleteEvent: { write: ({ db, s, o }) => events.deleteEvent(db, s.schoolId, o.spareEventId) },
      countEvents: { read: ({ db, s }) => events.countEvents(db, s.schoolId) },
      activeEvents: { read: ({ db, s }) => events.activeEvents(db, s.schoolId, new Date(), 10) },
      listSections: { read: ({ db, s, o }) => events.listSections(db, s.schoolId, o.eventId) },
      findSection: { read: ({ db, s, o }) => events.findSection(db, s.schoolId, o.sectionId) },
      insertSection: {
        write: ({ db, s, o }) =>
          events.insertSection(db, s.schoolId, o.spareEventId, {
            date: '2030-01-01',
            start_time: '09:00',
            end_time: '10:00',
            starts_at: new Date('2030-01-01T09:00:00Z'),
            ends_at: new Date('2030-01-01T10:00:00Z'),
            location: null,
          }),
        result: false,
        refused: 'a composite foreign key',
      },
      updateSection: {
        write: ({ db, s, o }) =>
          events.updateSection(db, s.schoolId, o.spareSectionId, {
            date: '2030-01-02',
            start_time: '09:00',
            end_time: '10:00',
            starts_at: new Date('2030-01-02T09:00:00Z'),
            ends_at: new Date('2030-01-02T10:00:00Z'),
            location: 'Moved',
          }),
      },
      deleteSection: { write: ({ db, s, o }) => events.deleteSection(db, s.schoolId, o.spareSectionId) },
      listSectionTeachers: {
        read: ({ db, s, o }) => events.listSectionTeachers(db, s.schoolId, { eventId: o.eventId }),
      },
      replaceSectionTeachers: {
        write: ({ db, s, o }) => events.replaceSectionTeachers(db, s.schoolId, o.sectionId, []),
      },
      setSectionTeacherLocation: {
        write: ({ db, s, o }) =>
          events.setSectionTeacherLocation(db, s.schoolId, o.sectionId, o.teachers[0]?.id ?? 0, 'Room 9'),
      },
      listSlots: { read: ({ db, s, o }) => events.listSlots(db, s.schoolId, o.eventId) },
      slotCounts: { read: ({ db, s, o }) => events.slotCounts(db, s.schoolId, o.eventId) },
      lockSlots: { read: ({ db, s, o }) => events.lockSlots(db, s.schoolId, { eventId: o.eventId }) },
      deleteSlots: { write: ({ db, s, o }) => events.deleteSlots(db, s.schoolId, [o.freeSlotId]) },
      insertSlots: {
        write: ({ db, s, o }) =>
          events.insertSlots(db, [
            {
              school_id: s.schoolId,
              event_id: o.eventId,
              section_id: o.sectionId,
              teacher_id: o.teachers[0]?.id ?? null,
              starts_at: new Date('2030-01-01T09:00:00Z'),
              ends_at: new Date('2030-01-01T09:10:00Z'),
              capacity: 1,
            },
          ]),
        refused: 'a composite foreign key',
      },
      setSlotsCapacity: { write: ({ db, s, o }) => events.setSlotsCapacity(db, s.schoolId, o.eventId, 3) },
      setSlotsLocation: {
        write: ({ db, s, o }) => events.setSlotsLocation(db, s.schoolId, { eventId: o.eventId }, 'Hall 2'),
      },
      findSlot: { read: ({ db, s, o }) => events.findSlot(db, s.schoolId, o.slotId) },
      bookingsQuery: { read: ({ db, s }) => events.bookingsQuery(db, s.schoolId).execute() },
      exportBookings: {
        read: ({ db, s, o }) =>
          events.exportBookings(db, s.schoolId, o.eventId, { after: null, limit: 1000 }),
      },
      exportTickets: {
        read: ({ db, s, o }) => events.exportTickets(db, s.schoolId, o.concertId, [o.concertBookingId]),
      },
      bookingsPage: {
        read: ({ db, s, o }) =>
          events.bookingsPage(db, s.schoolId, o.eventId, { q: '', cancelled: true, limit: 50, offset: 0 }),
      },
      liveBookingsOnSlots: { read: ({ db, s, o }) => events.liveBookingsOnSlots(db, s.schoolId, [o.slotId]) },
      liveBookingsOfEvent: { read: ({ db, s, o }) => events.liveBookingsOfEvent(db, s.schoolId, o.eventId) },
      cancelBookings: { write: ({ db, s, o }) => events.cancelBookings(db, s.schoolId, [o.bookingId]) },
      peopleWithRoles: {
        read: ({ db, s, o }) =>
          events.peopleWithRoles(db, s.schoolId, ['parent', 'teacher'], { ids: [o.parent.id, o.admin.id] }),
      },
      recipientsPage: {
        read: ({ db, s, o }) =>
          events.recipientsPage(db, s.schoolId, o.eventId, { q: '', notBooked: false, limit: 50, offset: 0 }),
      },
      recipientCounts: { read: ({ db, s, o }) => events.recipientCounts(db, s.schoolId, o.eventId) },
      recipientCount: { read: ({ db, s, o }) => events.recipientCount(db, s.schoolId, o.eventId) },
      recipientIds: { read: ({ db, s, o }) => events.recipientIds(db, s.schoolId, o.eventId) },
      previewRecipients: {
        read: ({ db, s, o }) =>
          events.previewRecipients(
            db,
            s.schoolId,
            o.eventId,
            { ids: [o.parent.id, o.children[0]?.id ?? 0] },
            5,
          ),
      },
      addRecipientsOf: {
        write: ({ db, s, o }) => events.addRecipientsOf(db, s.schoolId, o.eventId, { role: 'student' }),
        refused: 'a composite foreign key',
      },
      addMembers: {
        write: ({ db, s, o }) =>
          events.addMembers(db, 'event_recipients', s.schoolId, o.eventId, [o.children[0]?.id ?? 0]),
        refused: 'a composite foreign key',
      },
      removeMember: {
        write: ({ db, s, o }) =>
          events.removeMember(db, 'event_recipients', s.schoolId, o.eventId, o.parent.id),
      },
      clearScanners: { write: ({ db, s, o }) => events.clearScanners(db, s.schoolId, o.concertId) },
      listScanners: { read: ({ db, s, o }) => events.listScanners(db, s.schoolId, o.concertId) },
      messageRecipients: {
        read: ({ db, s, o }) =>
          events.messageRecipients(db, s.schoolId, o.eventId, { notBooked: true }, { after: 0, limit: 10 }),
      },
      countMessageRecipients: {
        read: ({ db, s, o }) =>
          events.countMessageRecipients(db, s.schoolId, o.eventId, { notBooked: false }),
      },
      countRole: { read: ({ db, s }) => events.countRole(db, s.schoolId, 'parent') },
      eventsWithFutureSlotsOf: {
        read: ({ db, s, o }) => events.eventsWithFutureSlotsOf(db, s.schoolId, o.teachers[0]?.id ?? 0),
      },
      lockFutureSlotsOf: {
        read: ({ db, s, o }) => events.lockFutureSlotsOf(db, s.schoolId, o.eventId, o.teachers[0]?.id ?? 0),
      },
      removeTeacherFromFutureSections: {
        write: ({ db, s, o }) =>
          events.removeTeacherFromFutureSections(db, s.schoolId, o.teachers[0]?.id ?? 0),
      },
    },
  ],
  'modules/jobs': [
    jobs,
    {
      insertJob: {
        write: ({ db, s, o }) =>
          jobs.insertJob(db, {
            schoolId: s.schoolId,
            eventId: o.eventId,
            kind: 'event-message',
            payload: {},
            total: 1,
            leaseSeconds: 60,
          }),
        result: false,
        refused: 'a composite foreign key',
      },
      claimDueJob: { noSchool: worker },
      lockHeldJob: { read: ({ db, s, o }) => jobs.lockHeldJob(db, { ...o.job, schoolId: s.schoolId }) },
      advanceJob: {
        write: ({ db, s, o }) =>
          jobs.advanceJob(
            db,
            { ...o.job, schoolId: s.schoolId },
            { handled: 1, cursor: 1, finished: false, leaseSeconds: 60 },
          ),
      },
      releaseJob: { write: ({ db, s, o }) => jobs.releaseJob(db, { ...o.job, schoolId: s.schoolId }) },
      recordJobFailure: {
        write: ({ db, s, o }) =>
          jobs.recordJobFailure(
            db,
            { ...o.job, schoolId: s.schoolId },
            { error: 'x', maxFailures: 3, baseSeconds: 1 },
          ),
      },
      findJob: { read: ({ db, s, o }) => jobs.findJob(db, s.schoolId, o.job.id) },
      recentJobsOfEvent: { read: ({ db, s, o }) => jobs.recentJobsOfEvent(db, s.schoolId, o.eventId, 10) },
    },
  ],
  'modules/load-test': [
    loadTest,
    {
      listEvents: { read: ({ db, s }) => loadTest.listEvents(db, s.schoolId) },
      findEvent: { read: ({ db, s, o }) => loadTest.findEvent(db, s.schoolId, o.eventId) },
      insertRun: {
        write: ({ db, s, o }) =>
          loadTest.insertRun(db, {
            schoolId: s.schoolId,
            eventId: o.eventId,
            eventName: 'E',
            parents: 1,
            startedBy: o.admin.id,
          }),
        result: false,
        refused: 'idInSchool: a NOT NULL column',
      },
      latestRun: { read: ({ db, s }) => loadTest.latestRun(db, s.schoolId) },
      findRun: { read: ({ db, s, o }) => loadTest.findRun(db, s.schoolId, o.runId) },
      saveFigures: { write: ({ db, s, o }) => loadTest.saveFigures(db, s.schoolId, o.runId, { n: 1 }) },
      finishRun: {
        write: ({ db, s, o }) =>
          loadTest.finishRun(db, s.schoolId, o.runId, {
            status: 'failed',
            figures: { n: 2 },
            integrity: null,
            failure: 'x',
          }),
      },
      markCleaned: { write: ({ db, s, o }) => loadTest.markCleaned(db, s.schoolId, o.runId) },
      createSandbox: {
        write: ({ db, s, o }) =>
          loadTest.createSandbox(db, {
            // The school's own event, so nothing refuses it: the run it records on is B's.
            schoolId: s.schoolId,
            eventId: s.eventId,
            runId: o.runId,
            parents: 1,
            tag: randomUUID().slice(0, 8),
            code: randomUUID().slice(0, 12),
          }),
        result: false,
      },
      integrityOf: { read: ({ db, s, o }) => loadTest.integrityOf(db, s.schoolId, o.eventId) },
      deleteSandbox: {
        write: ({ db, s }) => loadTest.deleteSandbox(db, s.schoolId),
        control: 'refuses any school that is not a sandbox, B included',
        refused: 'A is not a sandbox',
      },
      rowsOfSchool: { read: ({ db, s }) => loadTest.rowsOfSchool(db, s.schoolId) },
      failDeadRuns: { noSchool: 'the sweep of dead runs, any school’s (system scope)' },
      orphanSandboxes: { noSchool: 'the sweep of sandboxes, any school’s (system scope)' },
      uncleanedRuns: { noSchool: 'the sweep of runs, any school’s (system scope)' },
    },
  ],
  'modules/people': [
    people,
    {
      peoplePage: {
        read: ({ db, s, o }) =>
          people.peoplePage(db, s.schoolId, 'parent', {
            words: [o.parent.email],
            sort: 'name',
            dir: 'asc',
            limit: 10,
            offset: 0,
          }),
      },
      findPerson: { read: ({ db, s, o }) => people.findPerson(db, s.schoolId, o.parent.id, 'parent') },
      findPersonInRole: {
        read: ({ db, s, o }) => people.findPersonInRole(db, s.schoolId, o.parent.id, 'parent'),
      },
      idsWithRole: { read: ({ db, s, o }) => people.idsWithRole(db, s.schoolId, [o.parent.id], 'parent') },
      subjectIdsInSchool: { read: ({ db, s, o }) => people.subjectIdsInSchool(db, s.schoolId, o.subjects) },
      personSubjects: { noSchool: 'by a teacher the service has found in the school first' },
      linkedPeople: { noSchool: 'by a person the service has found in the school first' },
      studentStudies: { noSchool: 'by a student the service has found in the school first' },
      updatePerson: {
        write: ({ db, s, o }) => people.updatePerson(db, s.schoolId, o.parent.id, { first_name: 'Moved' }),
      },
      replaceTeacherSubjects: {
        write: ({ db, s, o }) => people.replaceTeacherSubjects(db, s.schoolId, o.teachers[0]?.id ?? 0, []),
      },
      replaceFamilyLinks: {
        write: ({ db, s, o }) => people.replaceFamilyLinks(db, s.schoolId, o.parent.id, 'children', []),
      },
      replaceStudentSubjects: {
        write: ({ db, s, o }) => people.replaceStudentSubjects(db, s.schoolId, o.children[0]?.id ?? 0, []),
      },
      lockSchool: {
        read: ({ db, s }) => people.lockSchool(db, s.schoolId),
        control: 'it answers nothing (it locks)',
      },
      countActiveAdminsOtherThan: {
        read: ({ db, s, o }) => people.countActiveAdminsOtherThan(db, s.schoolId, o.parent.id),
      },
      revokeRole: { write: ({ db, s, o }) => people.revokeRole(db, s.schoolId, o.parent.id, 'parent') },
      dropRoleLinks: {
        write: async ({ db, s, o }) => {
          await people.dropRoleLinks(db, s.schoolId, o.teachers[0]?.id ?? 0, 'teacher');
          await people.dropRoleLinks(db, s.schoolId, o.children[0]?.id ?? 0, 'student');
        },
      },
      deleteUserUnlessBooked: {
        write: ({ db, s, o }) => people.deleteUserUnlessBooked(db, s.schoolId, o.parent.id),
      },
      teachersForSubject: {
        read: ({ db, s, o }) => people.teachersForSubject(db, s.schoolId, o.subjects[0] ?? 0),
      },
      searchPeople: { read: ({ db, s }) => people.searchPeople(db, s.schoolId, '', ['parent', 'teacher']) },
    },
  ],
  'modules/profile/two-factor': [
    twoFactor,
    {
      findTwoFactor: {
        read: ({ db, s, o }) => twoFactor.findTwoFactor(db, { userId: o.admin.id, schoolId: s.schoolId }),
      },
      twoFactorEnabled: {
        read: ({ db, s, o }) => twoFactor.twoFactorEnabled(db, { userId: o.admin.id, schoolId: s.schoolId }),
      },
      savePendingSecret: {
        write: ({ db, s, o }) =>
          twoFactor.savePendingSecret(db, { userId: o.teachers[0]?.id ?? 0, schoolId: s.schoolId }, 'new'),
      },
      enableTwoFactor: {
        write: ({ db, s, o }) =>
          twoFactor.enableTwoFactor(db, { userId: o.teachers[0]?.id ?? 0, schoolId: s.schoolId }, 5),
      },
      useStep: {
        write: ({ db, s, o }) => twoFactor.useStep(db, { userId: o.admin.id, schoolId: s.schoolId }, 99),
      },
      turnOffTwoFactor: {
        write: ({ db, s, o }) => twoFactor.turnOffTwoFactor(db, { userId: o.admin.id, schoolId: s.schoolId }),
      },
      replaceRecoveryCodes: {
        write: ({ db, s, o }) =>
          twoFactor.replaceRecoveryCodes(db, { userId: o.admin.id, schoolId: s.schoolId }, []),
      },
      useRecoveryCode: {
        write: ({ db, s, o }) =>
          twoFactor.useRecoveryCode(db, { userId: o.admin.id, schoolId: s.schoolId }, o.recoveryCode),
      },
      countRecoveryCodesLeft: {
        read: ({ db, s, o }) =>
          twoFactor.countRecoveryCodesLeft(db, { userId: o.admin.id, schoolId: s.schoolId }),
      },
    },
  ],
  'modules/subjects': [
    subjects,
    {
      listSubjects: { read: ({ db, s }) => subjects.listSubjects(db, s.schoolId) },
      findSubject: { read: ({ db, s, o }) => subjects.findSubject(db, s.schoolId, o.subjects[0] ?? 0) },
      createSubject: { write: ({ db, s }) => subjects.createSubject(db, s.schoolId, 'Latin'), result: false },
      renameSubject: {
        write: ({ db, s, o }) => subjects.renameSubject(db, s.schoolId, o.subjects[0] ?? 0, 'Renamed'),
      },
      deleteSubject: { write: ({ db, s, o }) => subjects.deleteSubject(db, s.schoolId, o.spareSubjectId) },
      subjectIdsByName: { read: ({ db, s }) => subjects.subjectIdsByName(db, s.schoolId) },
    },
  ],
  'modules/tickets': [
    tickets,
    {
      insertTickets: {
        write: ({ db, s, o }) =>
          tickets.insertTickets(db, [
            {
              school_id: s.schoolId,
              event_id: o.concertId,
              booking_id: o.concertBookingId,
              user_id: o.children[0]?.id ?? 0,
              guest_index: 7,
              code: randomUUID(),
            },
          ]),
        refused: 'a composite foreign key',
      },
      liveTicketIndexes: {
        read: ({ db, s, o }) => tickets.liveTicketIndexes(db, s.schoolId, o.concertBookingId),
      },
      voidUnadmittedGuestTickets: {
        write: ({ db, s, o }) => tickets.voidUnadmittedGuestTickets(db, s.schoolId, o.concertBookingId, 1),
      },
      voidUnadmittedTickets: {
        write: ({ db, s, o }) => tickets.voidUnadmittedTickets(db, s.schoolId, [o.concertBookingId]),
      },
      ticketAtDoor: {
        read: ({ db, s, o }) => tickets.ticketAtDoor(db, s.schoolId, o.ticketCode, o.admin.id),
      },
      ticketAtDoorById: {
        read: ({ db, s, o }) => tickets.ticketAtDoorById(db, s.schoolId, o.ticketId, o.admin.id),
      },
      ticketsOfHolder: {
        read: ({ db, s, o }) => tickets.ticketsOfHolder(db, s.schoolId, o.concertId, o.children[0]?.id ?? 0),
      },
      ticketEvent: { read: ({ db, s, o }) => tickets.ticketEvent(db, s.schoolId, o.concertId) },
      isScanner: { read: ({ db, s, o }) => tickets.isScanner(db, s.schoolId, o.concertId, o.admin.id) },
      isParentOf: {
        read: ({ db, s, o }) => tickets.isParentOf(db, s.schoolId, o.parent.id, o.children[0]?.id ?? 0),
      },
      admitTicket: {
        write: ({ db, s, o }) =>
          tickets.admitTicket(db, s.schoolId, o.ticketId, { by: s.admin.id, device: 'door-2' }),
      },
      unadmitTicket: { write: ({ db, s, o }) => tickets.unadmitTicket(db, s.schoolId, o.scannedTicketId) },
      recordScan: {
        write: ({ db, s, o }) =>
          tickets.recordScan(db, {
            school_id: s.schoolId,
            event_id: o.concertId,
            ticket_id: o.ticketId,
            action: 'refused',
            by_user: o.admin.id,
            device_id: null,
            client_nonce: randomUUID(),
            device_time: null,
            answer: null,
          }),
        result: false,
        refused: 'a composite foreign key',
      },
      scanAnswer: { read: ({ db, s, o }) => tickets.scanAnswer(db, s.schoolId, o.admin.id, o.scanNonce) },
      doorCounts: { read: ({ db, s, o }) => tickets.doorCounts(db, s.schoolId, o.concertId) },
      recentAdmissions: { read: ({ db, s, o }) => tickets.recentAdmissions(db, s.schoolId, o.concertId, 10) },
      searchTickets: { read: ({ db, s, o }) => tickets.searchTickets(db, s.schoolId, o.concertId, '', 10) },
      liveBookings: { read: ({ db, s, o }) => tickets.liveBookings(db, s.schoolId, o.concertId, []) },
      eventTicketList: { read: ({ db, s, o }) => tickets.eventTicketList(db, s.schoolId, o.concertId) },
      duplicateScans: { read: ({ db, s, o }) => tickets.duplicateScans(db, s.schoolId, o.concertId, 10) },
    },
  ],
  'modules/tokens': [
    tokens,
    {
      issueToken: {
        write: ({ db, s, o }) =>
          tokens.issueToken(db, { userId: o.parent.id, schoolId: s.schoolId, kind: 'access' }),
        result: false,
        refused: 'idInSchool: a NOT NULL column',
      },
      issueEventLinks: {
        write: ({ db, s, o }) =>
          tokens.issueEventLinks(db, { schoolId: s.schoolId, eventId: o.eventId, userIds: [o.parent.id] }),
        result: false,
        refused: 'a composite foreign key',
      },
      issueEventLinksWithoutPassword: {
        write: ({ db, s, o }) =>
          tokens.issueEventLinksWithoutPassword(db, {
            schoolId: s.schoolId,
            eventId: o.eventId,
            userIds: [o.parent.id],
          }),
        result: false,
      },
      listSessions: {
        read: ({ db, s, o }) => tokens.listSessions(db, { userId: o.admin.id, schoolId: s.schoolId }, ''),
      },
      endSession: {
        write: ({ db, s, o }) =>
          tokens.endSession(db, { userId: o.admin.id, schoolId: s.schoolId }, o.sessionId),
      },
      revokeEventLinks: { write: ({ db, s, o }) => tokens.revokeEventLinks(db, s.schoolId, o.parent.id) },
      consumeToken: { noSchool: 'by the token itself, which names its school' },
      findLiveToken: { noSchool: 'by the token itself, which names its school' },
      findUsedToken: { noSchool: 'by the token itself, which names its school' },
      revokeTokens: { noSchool: byUser },
      revokeAccessToken: { noSchool: 'by the token itself, which names its school' },
      findSession: { noSchool: 'by the token itself, before the school is known (parley_session)' },
      sessionTouchesOf: {
        noSchool: "the process's marks of sessions used, written by the tokens themselves",
      },
      revokeOtherAccessTokens: { noSchool: byUser },
    },
  ],
  'modules/users': [
    users,
    {
      searchSchoolEmails: { read: ({ db, s }) => users.searchSchoolEmails(db, s.schoolId, '') },
      createUser: {
        write: ({ db, s }) =>
          users.createUser(db, {
            schoolId: s.schoolId,
            email: email(),
            firstName: 'N',
            lastName: 'U',
            passwordHash: null,
          }),
        result: false,
      },
      grantRole: {
        write: ({ db, s, o }) =>
          users.grantRole(db, { userId: o.parent.id, schoolId: s.schoolId, role: 'teacher', accepted: true }),
        refused: 'idInSchool: a NOT NULL column',
      },
      findRoles: { noSchool: byUser },
      findUserByEmail: { noSchool: 'an email is one account across schools (sign-in)' },
      emailSchools: { noSchool: 'the one read across schools (parley_email_schools)' },
      schoolOfEmail: { noSchool: 'the one read across schools (parley_email_schools)' },
      findUserById: { noSchool: byUser },
      emailExists: { noSchool: 'an email is one account across schools' },
      markRoleAccepted: { noSchool: byUser },
      acceptInvitedRoles: { noSchool: byUser },
      pendingInvitedRoles: { noSchool: byUser },
      setPassword: { noSchool: byUser },
      markEmailVerified: { noSchool: byUser },
      countLogin: { noSchool: byUser },
      findUserWithSchool: { noSchool: 'sign-in: the account names its school' },
      updateProfile: { noSchool: byUser },
      updateSettingsJson: { noSchool: byUser },
    },
  ],
  push: [
    push,
    {
      readSetting: { noSchool: 'the installation’s settings (the push keys)' },
      insertSettingIfAbsent: { noSchool: 'the installation’s settings (the push keys)' },
      upsertSubscription: {
        // By design an endpoint moves to whoever subscribes it last with its browser's keys (a shared
        // device), from any school.
        write: ({ db, s, o }) =>
          push.upsertSubscription(db, {
            schoolId: s.schoolId,
            userId: o.parent.id,
            endpoint: `https://push.example/${randomUUID()}`,
            p256dh: 'k',
            auth: 'a',
            userAgent: null,
          }),
        refused: 'a composite foreign key',
      },
      deleteOwnSubscription: {
        write: ({ db, s, o }) => push.deleteOwnSubscription(db, s.schoolId, o.parent.id, o.pushEndpoint),
      },
      enqueuePush: {
        write: ({ db, s, o }) =>
          push.enqueuePush(db, s.schoolId, {
            userIds: [o.parent.id],
            payload: { t: 1 },
            ttlSeconds: 60,
            urgency: 'high',
          }),
      },
      deleteSubscription: { noSchool: worker },
      markDelivered: { noSchool: worker },
      claimDuePush: { noSchool: worker },
      upsertDeviceSubscription: {
        // As a browser's endpoint: a phone's token moves to whoever registers it last, from any school.
        write: ({ db, s, o }) =>
          push.upsertDeviceSubscription(db, {
            schoolId: s.schoolId,
            userId: o.parent.id,
            channel: 'apns',
            token: randomUUID().replaceAll('-', '').repeat(2),
          }),
        refused: 'a composite foreign key',
      },
    },
  ],
  'modules/live/calls': [
    calls,
    {
      callBooking: { read: ({ db, s, o }) => calls.callBooking(db, s.schoolId, o.bookingId, o.admin.id) },
      teacherBusyUntil: {
        read: ({ db, s, o }) =>
          calls.teacherBusyUntil(
            db,
            s.schoolId,
            { id: 0, event_id: o.eventId, teacher_id: o.teachers[0]?.id ?? 0 },
            new Date(0),
          ),
      },
      callAdmins: { read: ({ db, s }) => calls.callAdmins(db, s.schoolId, 0) },
      invitedAdmins: { read: ({ db, s, o }) => calls.invitedAdmins(db, s.schoolId, o.bookingId) },
      inviteAdmin: {
        write: ({ db, s, o }) =>
          calls.inviteAdmin(db, s.schoolId, {
            bookingId: o.bookingId,
            adminId: o.admin.id,
            invitedBy: o.teachers[0]?.id ?? 0,
          }),
        control: 'the fixture has invited B’s admin to B’s booking already: again adds nothing',
      },
      insertSignal: {
        write: ({ db, s, o }) =>
          calls.insertSignal(db, s.schoolId, {
            bookingId: o.bookingId,
            fromUser: o.parent.id,
            payload: { kind: 'left' },
          }),
        refused: 'the booking is read within the school given: none, so nothing is written',
      },
      nextCall: {
        read: ({ db, s, o }) =>
          calls.nextCall(db, s.schoolId, {
            event_id: o.eventId,
            teacher_id: o.teachers[0]?.id ?? 0,
            starts_at: new Date(0),
          }),
      },
      signalById: { noSchool: 'the live channel’s own query (system scope), by the announced row’s id' },
      deleteSignalsBefore: {
        noSchool: 'the push worker’s sweep (system scope): every school’s calls long over',
      },
    },
  ],
  'modules/live/timing': [
    timing,
    {
      saveTiming: {
        write: ({ db, s, o }) =>
          timing.saveTiming(db, s.schoolId, {
            eventId: o.eventId,
            teacherId: o.teachers[0]?.id ?? 0,
            minutes: 20,
            byUserId: o.admin.id,
          }),
        refused: 'a composite foreign key',
      },
      teachesAt: {
        read: ({ db, s, o }) => timing.teachesAt(db, s.schoolId, o.eventId, o.teachers[0]?.id ?? 0),
      },
      timingsAt: {
        read: ({ db, s, o }) => timing.timingsAt(db, s.schoolId, o.eventId, [o.teachers[0]?.id ?? 0]),
      },
      stillToSee: {
        read: ({ db, s, o }) =>
          timing.stillToSee(db, s.schoolId, o.eventId, o.teachers[0]?.id ?? 0, new Date()),
      },
      lateAppointments: {
        read: ({ db, s, o }) => timing.lateAppointments(db, s.schoolId, o.parent.id, 'parent', new Date()),
      },
      timingAudience: { noSchool: 'the live channel’s own query (system scope), by the announced row’s id' },
      claimNextUp: { noSchool: 'the push worker’s sweep (system scope), every school’s appointments' },
    },
  ],
  'modules/reminders/day-before': [
    reminders,
    {
      claimDayBeforeReminders: {
        noSchool: 'the reminder sweep’s own query (system scope), every school by its clock',
      },
      reminderAppointments: {
        noSchool: 'the reminder sweep’s own query: the schools of the rows it claimed',
      },
    },
  ],
};

// What a function's case cannot see gets a read case of its own: a write refused whole says nothing of
// what it reads, and a parent has children but no parents.
const reads: Record<string, (c: Ctx) => Promise<unknown>> = {
  // No rows: the party's live bookings read back after the insert, by the school and event given.
  'modules/booking.insertAndReadBookings': ({ db, s, o }) =>
    booking.insertAndReadBookings(db, s.schoolId, o.eventId, { parentId: o.parent.id, studentId: null }, []),
  // A child: its parents.
  'modules/booking.recipientAccess': ({ db, s, o }) =>
    booking.recipientAccess(db, s.schoolId, o.eventId, o.children[0]?.id ?? 0),
};

// ── the harness ──────────────────────────────────────────────────────────────────────────────────────

let t: TestApp;
let a: School;
let b: School;
let tables: string[];

/** Every row of the school, table by table, as text: a write that touches one shows here. */
async function snapshot(db: Db, schoolId: number): Promise<Record<string, string>> {
  const parts = [...tables, 'schools'].map(
    (table) =>
      sql`SELECT ${table}::text AS name, (SELECT coalesce(jsonb_agg(to_jsonb(r) ORDER BY to_jsonb(r)::text), '[]')::text
        FROM ${sql.table(table)} r WHERE ${sql.ref(table === 'schools' ? 'r.id' : 'r.school_id')} = ${schoolId}) AS rows`,
  );
  const { rows } = await sql<{ name: string; rows: string }>`${sql.join(parts, sql` UNION ALL `)}`.execute(
    db,
  );
  return Object.fromEntries(rows.map((row) => [row.name, row.rows]));
}

const changed = (before: Record<string, string>, after: Record<string, string>) =>
  Object.keys(before).filter((table) => before[table] !== after[table]);

// Columns that point at another table's row; such a row must be of the pointing row's school.
const POINTS_AT: Record<string, string> = {
  user_id: 'users',
  teacher_id: 'users',
  parent_id: 'users',
  student_id: 'users',
  by_user: 'users',
  scanned_by: 'users',
  booked_by: 'users',
  started_by: 'users',
  event_id: 'events',
  event_type_id: 'event_types',
  subject_id: 'subjects',
  section_id: 'sections',
  slot_id: 'slots',
  booking_id: 'bookings',
  ticket_id: 'tickets',
  subscription_id: 'push_subscriptions',
};

/** Rows pointing into another school, as "table.column → table" with how many. */
async function crossLinks(db: Db): Promise<string[]> {
  const { rows: columns } = await sql<{ table_name: string; column_name: string }>`
    SELECT table_name, column_name FROM information_schema.columns
    WHERE table_schema = 'public' AND table_name = ANY (${tables}::text[]) AND column_name = ANY (${Object.keys(POINTS_AT)}::text[])
    ORDER BY 1, 2`.execute(db);
  const parts = columns
    .filter((c) => !(c.table_name === 'audit_entries' && c.column_name !== 'event_id'))
    .map(
      (
        c,
      ) => sql`SELECT ${`${c.table_name}.${c.column_name} → ${POINTS_AT[c.column_name]}`}::text AS link, count(*)::int AS n
        FROM ${sql.table(c.table_name)} x JOIN ${sql.table(POINTS_AT[c.column_name] ?? '')} y ON y.id = ${sql.ref(`x.${c.column_name}`)}
        WHERE y.school_id IS DISTINCT FROM x.school_id`,
    );
  const { rows } = await sql<{ link: string; n: number }>`${sql.join(parts, sql` UNION ALL `)}`.execute(db);
  return rows.filter((row) => row.n > 0).map((row) => `${row.link}: ${row.n}`);
}

class Rollback {
  constructor(readonly value: unknown) {}
}

/** Work in a transaction that is always rolled back: the fixture stays as it was for the next case. */
async function rolledBack<T>(work: (trx: Db) => Promise<T>): Promise<T> {
  try {
    await t.db.transaction().execute(async (trx) => {
      throw new Rollback(await work(trx));
    });
  } catch (error) {
    if (error instanceof Rollback) return error.value as T;
    throw error;
  }
  throw new Error('unreachable');
}

type Outcome = { value: unknown } | { refused: true };

/**
 * A call inside a savepoint, then `look` at what it did, then the savepoint rolled back: refused (a
 * foreign key, a NOT NULL, a policy) or not, the transaction stays usable and as it was.
 */
async function probe<T>(trx: Db, call: () => Promise<unknown>, look: () => Promise<T>) {
  await sql`SAVEPOINT probe`.execute(trx);
  let outcome: Outcome;
  try {
    outcome = { value: await call() };
  } catch {
    await sql`ROLLBACK TO SAVEPOINT probe`.execute(trx);
    outcome = { refused: true };
  }
  const seen = await look();
  await sql`ROLLBACK TO SAVEPOINT probe`.execute(trx);
  return { outcome, seen };
}

async function settle(call: () => Promise<unknown>): Promise<Outcome> {
  try {
    return { value: await call() };
  } catch {
    return { refused: true };
  }
}

/** Instants of a write (now() of its transaction) differ between two runs of it: compared as present. */
function timeless(value: unknown): unknown {
  if (value instanceof Date) return 'an instant';
  if (Array.isArray(value)) return value.map(timeless);
  if (value instanceof Map) return new Map([...value].map(([k, v]) => [k, timeless(v)]));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, timeless(v)]));
  return value;
}

/**
 * Where row-level security refuses a call outright (PostgreSQL refuses an upsert whose conflicting row the
 * policy hides), the first wall answering nothing is the same answer.
 */
function walledAnswer(walled: Outcome, first: Outcome): Outcome {
  return 'refused' in walled && 'value' in first && isEmpty(first.value) ? first : walled;
}

function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null || value === false || value === 0 || value === 0n || value === '')
    return true;
  if (Array.isArray(value)) return value.length === 0;
  if (value instanceof Map || value instanceof Set) return value.size === 0;
  if (value instanceof Date) return false;
  if (typeof value === 'object') return Object.values(value).every(isEmpty);
  return false;
}

async function checkRead(name: string, read: (c: Ctx) => Promise<unknown>, control?: string) {
  // Both ways round: a query that forgets its school and takes the first row it finds answers right for
  // the school whose rows come first, and only the other way round shows it.
  for (const [s, o, label] of [
    [a, b, "school A and B's ids"],
    [b, a, "school B and A's ids"],
  ] as const) {
    const first = await asSystem(() => settle(() => read({ db: t.db, s, o })));
    const second = await asSchool(s.schoolId, () => settle(() => read({ db: t.db, s, o })));
    expect(first, `${name} with ${label} finds what row-level security would hide`).toEqual(
      walledAnswer(second, first),
    );
  }
  if (control) return;
  const own = await asSystem(() => read({ db: t.db, s: b, o: b }));
  expect(isEmpty(own), `${name} with B's own school finds nothing: the case tests nothing`).toBe(false);
}

async function checkWrite(name: string, kase: Extract<Case, { write: unknown }>) {
  const call = (db: Db, s: School) => () => kase.write({ db, s, o: b }) as Promise<unknown>;
  const nothing = async () => undefined;
  const run = await asSystem(() =>
    rolledBack(async (trx) => {
      const before = await snapshot(trx, b.schoolId);
      const { outcome, seen } = await probe(trx, call(trx, a), async () => ({
        after: await snapshot(trx, b.schoolId),
        links: await crossLinks(trx),
      }));
      const control = kase.control
        ? before
        : (await probe(trx, call(trx, b), () => snapshot(trx, b.schoolId))).seen;
      return { before, outcome, ...seen, control };
    }),
  );
  expect(changed(run.before, run.after), `${name} with school A changed B's rows in`).toEqual([]);
  expect(run.links, `${name} with school A made rows point into another school`).toEqual([]);
  // A refused call is rolled back whole: what a statement before the refusal did is not seen, so a case
  // says it expects the refusal (a single insert of foreign ids), and a case of several statements avoids it.
  expect(
    'refused' in run.outcome,
    kase.refused
      ? `${name} with school A and B's ids was not refused (${kase.refused})`
      : `${name} with school A and B's ids was refused: what it did before is rolled back unseen`,
  ).toBe(kase.refused !== undefined);
  if (kase.result !== false) {
    const walled = await asSchool(a.schoolId, () => rolledBack((trx) => probe(trx, call(trx, a), nothing)));
    expect(timeless(run.outcome), `${name} with school A answers what row-level security would hide`).toEqual(
      timeless(walledAnswer(walled.outcome, run.outcome)),
    );
  }
  if (!kase.control)
    expect(
      changed(run.before, run.control),
      `${name} with B's own school changed nothing: the case tests nothing`,
    ).not.toEqual([]);
}

beforeAll(async () => {
  t = await createTestApp();
  a = await schoolOfEverything(t, 'Alpha Academy');
  b = await schoolOfEverything(t, 'Beta Academy');
  tables = await schoolTables(t.db);
});
afterAll(() => t.close());

describe('repository functions keep to the school they are given (the first wall, row-level security off)', () => {
  it('has a case for every exported function of every repository module', () => {
    const src = join(__dirname, '../../src');
    const found = (readdirSync(src, { recursive: true }) as string[])
      .filter((file) => file.endsWith('.repository.ts'))
      .map((file) =>
        relative(src, join(src, file))
          .replace(/\.repository\.ts$/, '')
          .replace(/(^|\/)([\w-]+)\/\2$/, '$1$2'),
      )
      .sort();
    expect(found, 'repository modules this test does not import').toEqual(Object.keys(repositories).sort());
    const missing: string[] = [];
    const stale: string[] = [];
    const mislabelled: string[] = [];
    const orphans: string[] = [];
    for (const [module, [exports, cases]] of Object.entries(repositories)) {
      for (const [name, value] of Object.entries(exports)) {
        if (typeof value !== 'function') continue;
        const kase = cases[name];
        if (!kase) missing.push(`${module}.${name}`);
        // A function said to take no school must not have a parameter named for one.
        const params = /\(([^)]*)\)/.exec(String(value))?.[1] ?? '';
        if (kase && 'noSchool' in kase && /school/i.test(params)) mislabelled.push(`${module}.${name}`);
        // A part of another function's statement is covered by that function's case, which must exist.
        if (kase && 'partOf' in kase) {
          const [of, fn] = kase.partOf.split(/\.(?=[^.]+$)/);
          const whole = repositories[of ?? '']?.[1][fn ?? ''];
          if (!whole || 'noSchool' in whole || 'partOf' in whole) orphans.push(`${module}.${name}`);
        }
      }
      for (const name of Object.keys(cases))
        if (typeof exports[name] !== 'function') stale.push(`${module}.${name}`);
    }
    expect(missing, 'exported repository functions without a case').toEqual([]);
    expect(stale, 'cases for functions that are no longer exported').toEqual([]);
    expect(mislabelled, 'functions said to take no school that take one').toEqual([]);
    expect(orphans, 'parts of a statement whose function has no case').toEqual([]);
  });

  it('starts from two schools with rows in every school table, pointing only into their own school', async () => {
    expect(await asSystem(() => crossLinks(t.db))).toEqual([]);
    for (const school of [a, b]) {
      const empty = Object.entries(await asSystem(() => snapshot(t.db, school.schoolId)))
        .filter(([, rows]) => rows === '[]')
        .map(([table]) => table);
      // A table added later gets its rows in two-schools.ts, so its functions' cases have something to miss.
      expect(empty, 'school tables two-schools.ts leaves empty').toEqual([]);
    }
  });

  for (const [module, [, cases]] of Object.entries(repositories))
    for (const [name, kase] of Object.entries(cases)) {
      if ('noSchool' in kase || 'partOf' in kase) continue;
      it(`${module}.${name}`, async () => {
        if ('read' in kase) await checkRead(`${module}.${name}`, kase.read, kase.control);
        else await checkWrite(`${module}.${name}`, kase);
      });
    }
  for (const [name, read] of Object.entries(reads)) it(`${name} (its read)`, () => checkRead(name, read));
});
