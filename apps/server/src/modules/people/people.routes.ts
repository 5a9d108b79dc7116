import { emailSearchResponse, searchQuery } from '@parley/domain/auth';
import { idField, idParam } from '@parley/domain/fields';
import {
  deleteQuery,
  directoryPage,
  directoryQuery,
  idQuery,
  invitedResponse,
  inviteRequest,
  parentRequest,
  parentUpdate,
  personDetail,
  revokeLinksRequest,
  revokeLinksResponse,
  savedResponse,
  studentRequest,
  studentUpdate,
  teacherRequest,
  teacherUpdate,
} from '@parley/domain/people';
import { ROLES, type Role } from '@parley/domain/roles';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { actorOf } from '../../lib/actor';
import { type Api, errorResponses } from '../../lib/api';
import { requireSession, type Session, sessionOf } from '../../plugins/auth';
import * as people from './people.service';

// Spec §7 Users: the school directory. Every route is admin-only and scoped to the admin's school.
export function peopleRoutes(api: Api, ctx: AppContext): void {
  const tags = ['people'];
  const admin = { onRequest: requireSession(ctx.db, ['admin']) };
  const security = [{ bearer: [] }];
  const school = (request: { session: Session | null }) => sessionOf(request).schoolId;
  const actor = (request: FastifyRequest) => actorOf(request, sessionOf(request));

  const lists: Array<[string, Role]> = [
    ['/users/admins', 'admin'],
    ['/users/teachers', 'teacher'],
    ['/users/parents', 'parent'],
    ['/users/students', 'student'],
  ];
  for (const [path, role] of lists) {
    api.get(
      path,
      {
        ...admin,
        schema: {
          tags,
          security,
          querystring: directoryQuery,
          response: { 200: directoryPage, ...errorResponses },
        },
      },
      (request) => people.listPeople(ctx, school(request), role, request.query),
    );
  }

  const views: Array<[string, Role]> = [
    ['/users/view-admin-for-admin', 'admin'],
    ['/users/view-teacher-for-admin', 'teacher'],
    ['/users/view-parent-for-admin', 'parent'],
    ['/users/view-student-for-admin', 'student'],
  ];
  for (const [path, role] of views) {
    api.get(
      path,
      {
        ...admin,
        schema: { tags, security, querystring: idQuery, response: { 200: personDetail, ...errorResponses } },
      },
      (request) => people.viewPerson(ctx, school(request), request.query.id, role),
    );
  }

  const created = { 200: savedResponse, ...errorResponses };
  api.post(
    '/users/invite-admin',
    {
      ...admin,
      schema: { tags, security, body: inviteRequest, response: { 200: invitedResponse, ...errorResponses } },
    },
    (request) => people.inviteAdmin(ctx, school(request), request.body, actor(request)),
  );
  api.post(
    '/users/create-teacher',
    { ...admin, schema: { tags, security, body: teacherRequest, response: created } },
    (request) => people.createTeacher(ctx, school(request), request.body, actor(request)),
  );
  api.post(
    '/users/create-parent',
    { ...admin, schema: { tags, security, body: parentRequest, response: created } },
    (request) => people.createParent(ctx, school(request), request.body, actor(request)),
  );
  api.post(
    '/users/create-student',
    { ...admin, schema: { tags, security, body: studentRequest, response: created } },
    (request) => people.createStudent(ctx, school(request), request.body, actor(request)),
  );

  api.post(
    '/users/update-teacher',
    { ...admin, schema: { tags, security, querystring: idQuery, body: teacherUpdate, response: created } },
    (request) =>
      people.updatePerson(ctx, school(request), request.query.id, 'teacher', request.body, actor(request)),
  );
  api.post(
    '/users/update-parent',
    { ...admin, schema: { tags, security, querystring: idQuery, body: parentUpdate, response: created } },
    (request) =>
      people.updatePerson(ctx, school(request), request.query.id, 'parent', request.body, actor(request)),
  );
  api.post(
    '/users/update-student',
    { ...admin, schema: { tags, security, querystring: idQuery, body: studentUpdate, response: created } },
    (request) =>
      people.updatePerson(ctx, school(request), request.query.id, 'student', request.body, actor(request)),
  );

  api.post(
    '/users/delete',
    {
      ...admin,
      schema: { tags, security, querystring: deleteQuery, body: z.unknown().optional(), response: created },
    },
    (request) =>
      people.removeRole(ctx, school(request), request.query.id, request.query.role, actor(request)),
  );
  api.post(
    '/users/remove-admin',
    {
      ...admin,
      schema: {
        tags,
        security,
        body: z.strictObject({ id: idField }),
        response: created,
      },
    },
    (request) => people.removeRole(ctx, school(request), request.body.id, 'admin', actor(request)),
  );

  api.post(
    '/users/revoke-booking-links',
    {
      ...admin,
      schema: {
        tags,
        security,
        description:
          "Ends the personal booking links of a parent or student of the admin's school (another school's or a missing person: 404). A revoked link then answers like an unknown one.",
        body: revokeLinksRequest,
        response: { 200: revokeLinksResponse, ...errorResponses },
      },
    },
    (request) => people.revokeBookingLinks(ctx, actor(request), request.body.id),
  );

  api.get(
    '/users/search-email',
    {
      ...admin,
      schema: {
        tags,
        security,
        querystring: searchQuery,
        response: { 200: emailSearchResponse, ...errorResponses },
      },
    },
    async (request) => ({
      items: await people.findPeople(ctx, school(request), request.query.q, [...ROLES]),
    }),
  );
  api.get(
    '/users/search-can-scan-users',
    {
      ...admin,
      schema: {
        tags,
        security,
        querystring: searchQuery,
        response: { 200: emailSearchResponse, ...errorResponses },
      },
    },
    async (request) => ({
      items: await people.findPeople(ctx, school(request), request.query.q, ['admin', 'teacher', 'student']),
    }),
  );
  api.get(
    '/users/search-teachers-for-subject',
    {
      ...admin,
      schema: {
        tags,
        security,
        querystring: z.strictObject({ subject_id: idParam }),
        response: { 200: emailSearchResponse, ...errorResponses },
      },
    },
    async (request) => ({
      items: await people.teachersOfSubject(ctx, school(request), request.query.subject_id),
    }),
  );
}
