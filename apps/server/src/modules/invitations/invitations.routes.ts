import {
  emailRequest,
  invitationResponse,
  loginResponse,
  messageResponse,
  setPasswordRequest,
  tokenQuery,
} from '@parley/domain/auth';
import type { Role } from '@parley/domain/roles';
import type { AppContext } from '../../context';
import { type Api, errorResponses } from '../../lib/api';
import { sessionClient } from '../../lib/session-client';
import * as invitations from './invitations.service';

const acceptEndpoints: Array<[string, Role]> = [
  ['/users/accept-admin-invite', 'admin'],
  ['/users/accept-teacher-invite', 'teacher'],
  ['/users/accept-parent-invite', 'parent'],
  ['/users/accept-student-invite', 'student'],
];

// Parents and students set their password through /set-new-password (spec §2, §4).
const passwordEndpoints: Array<[string, Role[]]> = [
  ['/users/set-admin-password', ['admin']],
  ['/users/set-teacher-password', ['teacher']],
  ['/users/set-new-password', ['parent', 'student']],
];

export function invitationRoutes(api: Api, ctx: AppContext): void {
  const tags = ['invitations'];

  for (const [path, role] of acceptEndpoints) {
    api.get(
      path,
      { schema: { tags, querystring: tokenQuery, response: { 200: invitationResponse, ...errorResponses } } },
      (request) => invitations.readInvitation(ctx, role, request.query.token),
    );
  }

  for (const [path, roles] of passwordEndpoints) {
    api.post(
      path,
      { schema: { tags, body: setPasswordRequest, response: { 200: loginResponse, ...errorResponses } } },
      (request) =>
        invitations.acceptWithPassword(
          ctx,
          roles,
          request.body.token,
          request.body.password,
          sessionClient(request),
        ),
    );
  }

  api.post(
    '/user/resend-invitation',
    { schema: { tags, body: emailRequest, response: { 200: messageResponse, ...errorResponses } } },
    (request) => invitations.resendInvitation(ctx, request.body.email, request.ip),
  );
}
