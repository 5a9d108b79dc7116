import { Readable } from 'node:stream';
import { messageResponse } from '@parley/domain/auth';
import {
  eventBookingsPage,
  eventBookingsQuery,
  eventSlotsAnswer,
  eventSlotsQuery,
  recipientCounts,
  recipientCountsQuery,
  recipientsPage,
  recipientsQuery,
} from '@parley/domain/event-lists';
import {
  addRecipientsQuery,
  addRecipientsRequest,
  bookingNotificationRequest,
  bookingNotificationResponse,
  canScanRequest,
  confirmRequest,
  createdResponse,
  currentEventResponse,
  downloadQuery,
  eventConflictResponse,
  eventCreateRequest,
  eventIdQuery,
  eventScopedQuery,
  eventsIndexQuery,
  eventsIndexResponse,
  eventUpdateRequest,
  eventViewQuery,
  eventViewResponse,
  peopleItemsResponse,
  recipientsPreviewResponse,
  scannersResponse,
  sectionDeleteQuery,
  sectionRequest,
  sectionSavedResponse,
  slotsUpdatedResponse,
  updateSlotAllRequest,
  updateSlotLocationRequest,
  userIdRequest,
} from '@parley/domain/events';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { actorOf } from '../../lib/actor';
import { type Api, errorResponses } from '../../lib/api';
import { requireSession, type Session, sessionOf } from '../../plugins/auth';
import { createEvent } from './create-event.service';
import { deleteEvent } from './delete-event.service';
import { bookingsOfEvent } from './event-bookings.service';
import { updateAllSlots, updateSlotLocation } from './event-slots.service';
import { bookingsExport } from './export-bookings.service';
import { listEvents } from './list-events.service';
import {
  addRecipients,
  allOfRole,
  recipientCountsOf,
  recipientsOfEvent,
  removeRecipient,
} from './recipients.service';
import { removeScanner, setScanners } from './scanners.service';
import * as sections from './sections.service';
import { toggleBookingNotifications, updateEvent } from './update-event.service';
import { currentEvent, slotsOfEvent, viewEvent } from './view-event.service';

// Spec §7 Events. Every route is admin-only and scoped to the admin's school: another school's event,
// section, slot or person answers 404 exactly like a missing one.
export function eventRoutes(api: Api, ctx: AppContext): void {
  const tags = ['events'];
  const admin = { onRequest: requireSession(ctx.db, ['admin']) };
  const security = [{ bearer: [] }];
  const school = (request: { session: Session | null }) => sessionOf(request).schoolId;
  const ok = <T>(schema: T) => ({ 200: schema, ...errorResponses });
  /** Routes that may answer 409 with the bookings a change would cancel. */
  const withConflict = <T>(schema: T) => ({ ...ok(schema), 409: eventConflictResponse });

  api.get(
    '/events/index',
    {
      ...admin,
      schema: {
        tags,
        security,
        // The app's forced-refresh flag (spec §7 "The forced-refresh flag is passed on refresh"): always fresh.
        querystring: eventsIndexQuery,
        response: ok(eventsIndexResponse),
      },
    },
    (request) => listEvents(ctx, school(request)),
  );

  api.post(
    '/events/create',
    { ...admin, schema: { tags, security, body: eventCreateRequest, response: ok(createdResponse) } },
    (request) => createEvent(ctx, school(request), request.body),
  );

  api.get(
    '/events/view',
    { ...admin, schema: { tags, security, querystring: eventViewQuery, response: ok(eventViewResponse) } },
    (request) => viewEvent(ctx, school(request), request.query.id),
  );

  api.get(
    '/events/current',
    { ...admin, schema: { tags, security, response: ok(currentEventResponse) } },
    (request) => currentEvent(ctx, school(request)),
  );

  api.post(
    '/events/update',
    {
      ...admin,
      schema: {
        tags,
        security,
        querystring: eventIdQuery,
        body: eventUpdateRequest,
        response: withConflict(createdResponse),
      },
    },
    (request) =>
      updateEvent(ctx, school(request), request.query.id, request.body, actorOf(request, sessionOf(request))),
  );

  api.post(
    '/events/update-booking-notification-status',
    {
      ...admin,
      schema: {
        tags,
        security,
        querystring: eventIdQuery,
        body: bookingNotificationRequest,
        response: ok(bookingNotificationResponse),
      },
    },
    (request) =>
      toggleBookingNotifications(
        ctx,
        school(request),
        request.query.id,
        request.body?.bookingNotifications,
        actorOf(request, sessionOf(request)),
      ),
  );

  api.post(
    '/events/delete',
    {
      ...admin,
      schema: {
        tags,
        security,
        querystring: eventIdQuery,
        body: confirmRequest,
        response: withConflict(createdResponse),
      },
    },
    (request) =>
      deleteEvent(
        ctx,
        school(request),
        request.query.id,
        request.body?.confirm === true,
        actorOf(request, sessionOf(request)),
      ),
  );

  api.post(
    '/events/create-section',
    {
      ...admin,
      schema: {
        tags,
        security,
        querystring: eventScopedQuery,
        body: sectionRequest,
        response: withConflict(sectionSavedResponse),
      },
    },
    (request) => sections.createSection(ctx, school(request), request.query.eventId, request.body),
  );

  api.post(
    '/events/update-section',
    {
      ...admin,
      schema: {
        tags,
        security,
        querystring: eventIdQuery,
        body: sectionRequest,
        response: withConflict(sectionSavedResponse),
      },
    },
    (request) => sections.updateSection(ctx, school(request), request.query.id, request.body),
  );

  api.post(
    '/events/delete-section',
    {
      ...admin,
      schema: {
        tags,
        security,
        querystring: sectionDeleteQuery,
        body: confirmRequest,
        response: withConflict(sectionSavedResponse),
      },
    },
    (request) =>
      sections.deleteSection(
        ctx,
        school(request),
        request.query.eventId,
        request.query.sectionId,
        request.body?.confirm === true,
      ),
  );

  api.get(
    '/events/recipients',
    { ...admin, schema: { tags, security, querystring: recipientsQuery, response: ok(recipientsPage) } },
    (request) => recipientsOfEvent(ctx, school(request), request.query),
  );

  api.get(
    '/events/recipient-counts',
    {
      ...admin,
      schema: { tags, security, querystring: recipientCountsQuery, response: ok(recipientCounts) },
    },
    (request) => recipientCountsOf(ctx, school(request), request.query.eventId),
  );

  api.get(
    '/events/slots',
    { ...admin, schema: { tags, security, querystring: eventSlotsQuery, response: ok(eventSlotsAnswer) } },
    (request) => slotsOfEvent(ctx, school(request), request.query),
  );

  api.get(
    '/events/bookings',
    {
      ...admin,
      schema: { tags, security, querystring: eventBookingsQuery, response: ok(eventBookingsPage) },
    },
    (request) => bookingsOfEvent(ctx, school(request), request.query),
  );

  api.post(
    '/events/add-recipients',
    {
      ...admin,
      schema: {
        tags,
        security,
        querystring: addRecipientsQuery,
        body: addRecipientsRequest,
        response: ok(recipientsPreviewResponse),
      },
    },
    (request) =>
      addRecipients(ctx, school(request), request.query.eventId, request.body, request.query.saveme === 1),
  );

  api.post(
    '/events/remove-recipient',
    {
      ...admin,
      schema: {
        tags,
        security,
        querystring: eventScopedQuery,
        body: userIdRequest,
        response: ok(messageResponse),
      },
    },
    (request) => removeRecipient(ctx, school(request), request.query.eventId, request.body.userId),
  );

  api.post(
    '/events/update-can-scan-user-ids',
    {
      ...admin,
      schema: {
        tags,
        security,
        querystring: eventIdQuery,
        body: canScanRequest,
        response: ok(scannersResponse),
      },
    },
    (request) => setScanners(ctx, school(request), request.query.id, request.body.canScanUserIds),
  );

  api.post(
    '/events/remove-can-scan-user',
    {
      ...admin,
      schema: {
        tags,
        security,
        querystring: eventScopedQuery,
        body: userIdRequest,
        response: ok(scannersResponse),
      },
    },
    (request) => removeScanner(ctx, school(request), request.query.eventId, request.body.userId),
  );

  api.get(
    '/events/get-all-parents',
    { ...admin, schema: { tags, security, response: ok(peopleItemsResponse) } },
    (request) => allOfRole(ctx, school(request), 'parent'),
  );
  api.get(
    '/events/get-all-students',
    { ...admin, schema: { tags, security, response: ok(peopleItemsResponse) } },
    (request) => allOfRole(ctx, school(request), 'student'),
  );

  // A CSV file, not JSON: Excel opens it with the right characters (BOM) and the school's local times.
  api.get(
    '/events/download-bookings',
    {
      ...admin,
      schema: {
        tags,
        security,
        querystring: downloadQuery,
        produces: ['text/csv'],
        response: ok(z.string().describe('text/csv; charset=utf-8, with a byte-order mark')),
      },
    },
    async (request, reply) => {
      const file = await bookingsExport(ctx, school(request), request.query.eventId);
      return (
        reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${file.fileName}"`)
          .header('cache-control', 'no-store')
          // Fastify streams a Readable as it is read (the schema documents a file), as it sends a Buffer.
          .send(Readable.from(file.chunks) as unknown as string)
      );
    },
  );

  api.post(
    '/events/update-slot-all',
    {
      ...admin,
      schema: {
        tags,
        security,
        querystring: eventScopedQuery,
        body: updateSlotAllRequest,
        response: ok(slotsUpdatedResponse),
      },
    },
    (request) => updateAllSlots(ctx, school(request), request.query.eventId, request.body),
  );

  api.post(
    '/events/update-slot-location',
    {
      ...admin,
      schema: { tags, security, body: updateSlotLocationRequest, response: ok(slotsUpdatedResponse) },
    },
    (request) => updateSlotLocation(ctx, school(request), request.body),
  );
}
