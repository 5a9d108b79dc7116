import {
  arrangeRequest,
  arrangeResponse,
  bookEventQuery,
  bookingConflictResponse,
  bookingDataForStudentRequest,
  bookingDataForStudentResponse,
  bookingIdRequest,
  bookingPageResponse,
  bookingResultResponse,
  bookingViewQuery,
  subjectTeacherSelectorRequest,
  subjectTeacherSelectorResponse,
  teacherScheduleQuery,
  teacherScheduleResponse,
  updateGownSizeQuery,
  updateSlotByAdminRequest,
  updateSlotForBookingRequest,
  userSlotsQuery,
  userSlotsResponse,
} from '@parley/domain/booking';
import { eventIdQuery, eventScopedQuery } from '@parley/domain/events';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { type Api, errorResponses } from '../../lib/api';
import { requireSession, sessionOf } from '../../plugins/auth';
import { resolveBooker } from './booker';
import * as booking from './booking.service';
import { calendarFileFor, teacherSchedule } from './my-events.service';

// Spec §7 Events, the booking calls. A family is a logged-in parent or student, or an invited one coming
// from the personal link in their mail (X-Booking-Link header). Admin calls need an admin session.
export function bookingRoutes(api: Api, ctx: AppContext): void {
  const tags = ['booking'];
  const security: Array<Record<string, string[]>> = [{ bearer: [] }, { bookingLink: [] }];
  const ok = <T>(schema: T) => ({ 200: schema, ...errorResponses });
  const withConflict = <T>(schema: T) => ({ ...ok(schema), 409: bookingConflictResponse });
  const admin = { preHandler: requireSession(ctx.db, ['admin']) };
  const booker = async (request: Parameters<typeof resolveBooker>[1]) =>
    booking.requireBooker(await resolveBooker(ctx.db, request));

  api.get(
    '/events/book-event',
    { schema: { tags, security, querystring: bookEventQuery, response: ok(bookingPageResponse) } },
    async (request) =>
      booking.bookingPageByCode(ctx, await resolveBooker(ctx.db, request), request.query.code),
  );

  api.get(
    '/events/booking-view',
    { schema: { tags, security, querystring: bookingViewQuery, response: ok(bookingPageResponse) } },
    async (request) => booking.bookingPageById(ctx, await booker(request), request.query.eventId),
  );

  api.get(
    '/events/user-slots-for-pt',
    { schema: { tags, security, querystring: userSlotsQuery, response: ok(userSlotsResponse) } },
    async (request) =>
      booking.userSlots(
        ctx,
        await booker(request),
        request.query.eventId,
        request.query.subjectTeacherData,
        request.query.parentId,
      ),
  );

  api.post(
    '/events/booking-data-for-student',
    {
      schema: {
        tags,
        security,
        querystring: eventScopedQuery,
        body: bookingDataForStudentRequest,
        response: ok(bookingDataForStudentResponse),
      },
    },
    async (request) =>
      booking.bookingDataForStudent(
        ctx,
        await booker(request),
        request.query.eventId,
        request.body.studentId,
      ),
  );

  api.post(
    '/events/data-for-subject-teacher-selector',
    {
      schema: {
        tags,
        security,
        body: subjectTeacherSelectorRequest,
        response: ok(subjectTeacherSelectorResponse),
      },
    },
    async (request) => booking.subjectTeacherSelector(ctx, await booker(request), request.body.eventId),
  );

  api.post(
    '/events/arrange-slots',
    {
      schema: {
        tags,
        security,
        querystring: eventScopedQuery,
        body: arrangeRequest,
        response: withConflict(arrangeResponse),
      },
    },
    async (request) => booking.arrange(ctx, await booker(request), request.query.eventId, request.body),
  );

  api.post(
    '/events/update-slot-for-booking',
    {
      schema: {
        tags,
        security,
        querystring: eventIdQuery,
        body: updateSlotForBookingRequest,
        response: withConflict(bookingResultResponse),
      },
    },
    async (request) =>
      booking.updateSlotForBooking(ctx, await booker(request), request.query.id, request.body),
  );

  api.post(
    '/events/remove-booking',
    {
      schema: {
        tags,
        security,
        querystring: eventScopedQuery,
        body: bookingIdRequest,
        response: withConflict(bookingResultResponse),
      },
    },
    async (request) =>
      booking.removeBooking(ctx, await booker(request), request.query.eventId, request.body.bookingId),
  );

  api.post(
    '/events/update-gown-size',
    { schema: { tags, security, querystring: updateGownSizeQuery, response: ok(bookingResultResponse) } },
    async (request) => booking.updateGownSize(ctx, await booker(request), request.query),
  );

  api.post(
    '/events/update-slot-by-admin',
    {
      ...admin,
      schema: {
        tags,
        security: [{ bearer: [] }],
        querystring: eventIdQuery,
        body: updateSlotByAdminRequest,
        response: withConflict(bookingResultResponse),
      },
    },
    async (request) =>
      booking.updateSlotByAdmin(
        ctx,
        { ...sessionOf(request), viaLink: false, linkEventId: null },
        request.query.id,
        request.body,
      ),
  );

  api.post(
    '/events/confirm-booking',
    {
      ...admin,
      schema: {
        tags,
        security: [{ bearer: [] }],
        querystring: eventScopedQuery,
        body: bookingIdRequest,
        response: ok(bookingResultResponse),
      },
    },
    (request) =>
      booking.confirmBooking(ctx, sessionOf(request).schoolId, request.query.eventId, request.body.bookingId),
  );

  api.get(
    '/events/details-teacher',
    {
      preHandler: requireSession(ctx.db, ['teacher', 'admin']),
      schema: {
        tags,
        security: [{ bearer: [] }],
        querystring: teacherScheduleQuery,
        response: ok(teacherScheduleResponse),
      },
    },
    (request) => teacherSchedule(ctx, sessionOf(request), request.query.eventId, request.query.teacherId),
  );

  api.get(
    '/events/calendar-file',
    {
      schema: {
        tags,
        security,
        querystring: eventScopedQuery,
        produces: ['text/calendar'],
        response: ok(z.string().describe('text/calendar; charset=utf-8')),
      },
    },
    async (request, reply) => {
      const file = await calendarFileFor(ctx, await booker(request), request.query.eventId);
      return reply
        .header('content-type', file.contentType)
        .header('content-disposition', `attachment; filename="${file.filename}"`)
        .header('cache-control', 'no-store')
        .send(file.content);
    },
  );
}
