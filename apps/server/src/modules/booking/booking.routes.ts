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
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { actorOf } from '../../lib/actor';
import { type Api, errorResponses } from '../../lib/api';
import { compiledSerializer } from '../../lib/compiled-serializer';
import { authHook, requireSession, sessionOf } from '../../plugins/auth';
import { arrange } from './arrange.service';
import { resolveBooker } from './booker';
import { requireBooker } from './booking.service';
import {
  bookingDataForStudent,
  bookingPageByCode,
  bookingPageById,
  subjectTeacherSelector,
  userSlots,
} from './booking-page.service';
import { removeBooking, updateSlotByAdmin, updateSlotForBooking } from './change-booking.service';
import { confirmBooking, updateGownSize } from './confirm-booking.service';
import { calendarFileFor, teacherSchedule } from './my-events.service';

// Spec §7 Events, the booking calls. A family is a logged-in parent or student, or an invited one coming
// from the personal link in their mail (X-Booking-Link header). Admin calls need an admin session.
export function bookingRoutes(api: Api, ctx: AppContext): void {
  const tags = ['booking'];
  const security: Array<Record<string, string[]>> = [{ bearer: [] }, { bookingLink: [] }];
  const ok = <T>(schema: T) => ({ 200: schema, ...errorResponses });
  const withConflict = <T>(schema: T) => ({ ...ok(schema), 409: bookingConflictResponse });
  const admin = { onRequest: requireSession(ctx.db, ['admin']) };
  // A family's calls authenticate before their input is read: a session or a personal link, else 401.
  api.decorateRequest('booker', null);
  const family = {
    onRequest: authHook(async (request) => {
      request.booker = requireBooker(await resolveBooker(ctx.db, request));
      return request.booker;
    }),
  };
  // A family's changes (a booking rush's every attempt) are written by serializers compiled from their
  // schemas (lib/compiled-serializer.ts).
  const change = { ...family, serializerCompiler: compiledSerializer };
  const booker = (request: FastifyRequest) => {
    if (!request.booker) throw new Error('route is missing its family hook');
    return request.booker;
  };

  api.get(
    '/events/book-event',
    { schema: { tags, security, querystring: bookEventQuery, response: ok(bookingPageResponse) } },
    async (request) => bookingPageByCode(ctx, await resolveBooker(ctx.db, request), request.query.code),
  );

  api.get(
    '/events/booking-view',
    {
      ...family,
      schema: { tags, security, querystring: bookingViewQuery, response: ok(bookingPageResponse) },
    },
    async (request) => bookingPageById(ctx, booker(request), request.query.eventId),
  );

  api.get(
    '/events/user-slots-for-pt',
    { ...family, schema: { tags, security, querystring: userSlotsQuery, response: ok(userSlotsResponse) } },
    async (request) =>
      userSlots(
        ctx,
        booker(request),
        request.query.eventId,
        request.query.subjectTeacherData,
        request.query.parentId,
      ),
  );

  api.post(
    '/events/booking-data-for-student',
    {
      ...family,
      schema: {
        tags,
        security,
        querystring: eventScopedQuery,
        body: bookingDataForStudentRequest,
        response: ok(bookingDataForStudentResponse),
      },
    },
    async (request) =>
      bookingDataForStudent(ctx, booker(request), request.query.eventId, request.body.studentId),
  );

  api.post(
    '/events/data-for-subject-teacher-selector',
    {
      ...family,
      schema: {
        tags,
        security,
        body: subjectTeacherSelectorRequest,
        response: ok(subjectTeacherSelectorResponse),
      },
    },
    async (request) => subjectTeacherSelector(ctx, booker(request), request.body.eventId),
  );

  api.post(
    '/events/arrange-slots',
    {
      ...family,
      schema: {
        tags,
        security,
        querystring: eventScopedQuery,
        body: arrangeRequest,
        response: withConflict(arrangeResponse),
      },
    },
    async (request) => arrange(ctx, booker(request), request.query.eventId, request.body),
  );

  api.post(
    '/events/update-slot-for-booking',
    {
      ...change,
      schema: {
        tags,
        security,
        querystring: eventIdQuery,
        body: updateSlotForBookingRequest,
        response: withConflict(bookingResultResponse),
      },
    },
    async (request) => updateSlotForBooking(ctx, booker(request), request.query.id, request.body),
  );

  api.post(
    '/events/remove-booking',
    {
      ...change,
      schema: {
        tags,
        security,
        querystring: eventScopedQuery,
        body: bookingIdRequest,
        response: withConflict(bookingResultResponse),
      },
    },
    async (request) =>
      removeBooking(
        ctx,
        booker(request),
        request.query.eventId,
        request.body.bookingId,
        actorOf(request, booker(request)),
      ),
  );

  api.post(
    '/events/update-gown-size',
    {
      ...family,
      schema: { tags, security, querystring: updateGownSizeQuery, response: ok(bookingResultResponse) },
    },
    async (request) => updateGownSize(ctx, booker(request), request.query),
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
      updateSlotByAdmin(
        ctx,
        { ...sessionOf(request), viaLink: false, linkEventId: null },
        request.query.id,
        request.body,
        actorOf(request, sessionOf(request)),
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
      confirmBooking(
        ctx,
        sessionOf(request).schoolId,
        request.query.eventId,
        request.body.bookingId,
        actorOf(request, sessionOf(request)),
      ),
  );

  api.get(
    '/events/details-teacher',
    {
      onRequest: requireSession(ctx.db, ['teacher', 'admin']),
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
      ...family,
      schema: {
        tags,
        security,
        querystring: eventScopedQuery,
        produces: ['text/calendar'],
        response: ok(z.string().describe('text/calendar; charset=utf-8')),
      },
    },
    async (request, reply) => {
      const file = await calendarFileFor(ctx, booker(request), request.query.eventId);
      return reply
        .header('content-type', file.contentType)
        .header('content-disposition', `attachment; filename="${file.filename}"`)
        .header('cache-control', 'no-store')
        .send(file.content);
    },
  );
}
