import { currentUser, messageResponse } from '@parley/domain/auth';
import { idQuery } from '@parley/domain/people';
import { deviceTokenRequest } from '@parley/domain/push';
import {
  changePasswordRequest,
  profileUpdate,
  settingsResponse,
  settingsUpdate,
} from '@parley/domain/school';
import { endedSessionsResponse, endSessionRequest, sessionsResponse } from '@parley/domain/sessions';
import {
  confirmTwoFactorRequest,
  proofRequest,
  recoveryCodesResponse,
  twoFactorEnrolment,
  twoFactorStatus,
} from '@parley/domain/two-factor';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { actorOf } from '../../lib/actor';
import { type Api, errorResponses } from '../../lib/api';
import { requireSession, sessionOf } from '../../plugins/auth';
import * as profile from './profile.service';
import * as sessions from './sessions.service';
import * as twoFactor from './two-factor.service';

// Every role: one's own profile, password and settings (spec §6 "All roles: My profile, Settings").
export function profileRoutes(api: Api, ctx: AppContext): void {
  const tags = ['profile'];
  const signedIn = { onRequest: requireSession(ctx.db) };
  const security = [{ bearer: [] }];

  api.get(
    '/users/view',
    {
      ...signedIn,
      schema: { tags, security, querystring: idQuery, response: { 200: currentUser, ...errorResponses } },
    },
    (request) => profile.viewUser(ctx, sessionOf(request), request.query.id),
  );

  api.post(
    '/users/update',
    {
      ...signedIn,
      schema: {
        tags,
        security,
        querystring: idQuery,
        body: profileUpdate,
        response: { 200: currentUser, ...errorResponses },
      },
    },
    (request) =>
      profile.updateUser(
        ctx,
        sessionOf(request),
        request.query.id,
        request.body,
        actorOf(request, sessionOf(request)),
      ),
  );

  api.post(
    '/users/change-password',
    {
      ...signedIn,
      schema: {
        tags,
        security,
        body: changePasswordRequest,
        response: { 200: messageResponse, ...errorResponses },
      },
    },
    (request) => profile.changePassword(ctx, sessionOf(request), request.body),
  );

  api.get(
    '/users/settings',
    { ...signedIn, schema: { tags, security, response: { 200: settingsResponse, ...errorResponses } } },
    (request) => profile.settings(ctx, sessionOf(request).userId),
  );

  api.post(
    '/users/update-settings',
    {
      ...signedIn,
      schema: {
        tags,
        security,
        body: settingsUpdate,
        response: { 200: settingsResponse, ...errorResponses },
      },
    },
    (request) => profile.updateSettings(ctx, sessionOf(request).userId, request.body),
  );

  api.post(
    '/users/register-token',
    {
      ...signedIn,
      schema: {
        tags,
        security,
        querystring: idQuery.partial(),
        body: deviceTokenRequest,
        response: { 200: messageResponse, ...errorResponses },
      },
    },
    (request) => profile.registerDeviceToken(ctx, sessionOf(request), request.body),
  );

  // One's signed-in sessions (decision 015).
  api.get(
    '/user/sessions',
    { ...signedIn, schema: { tags, security, response: { 200: sessionsResponse, ...errorResponses } } },
    (request) => sessions.mySessions(ctx, sessionOf(request)),
  );

  api.post(
    '/user/end-session',
    {
      ...signedIn,
      schema: {
        tags,
        security,
        body: endSessionRequest,
        response: { 200: endedSessionsResponse, ...errorResponses },
      },
    },
    (request) => sessions.endMySession(ctx, sessionOf(request), request.body.id),
  );

  api.post(
    '/user/end-other-sessions',
    {
      ...signedIn,
      schema: {
        tags,
        security,
        body: z.unknown().optional(),
        response: { 200: endedSessionsResponse, ...errorResponses },
      },
    },
    (request) => sessions.endOtherSessions(ctx, sessionOf(request)),
  );

  // Two-factor sign-in of one's own account (decision 015): admins turn it on; whoever has it may renew
  // the recovery codes or turn it off.
  const adminOnly = { onRequest: requireSession(ctx.db, ['admin']) };

  api.get(
    '/user/two-factor',
    { ...signedIn, schema: { tags, security, response: { 200: twoFactorStatus, ...errorResponses } } },
    (request) => twoFactor.status(ctx, sessionOf(request)),
  );

  api.post(
    '/user/start-two-factor',
    {
      ...adminOnly,
      schema: {
        tags,
        security,
        body: z.unknown().optional(),
        response: { 200: twoFactorEnrolment, ...errorResponses },
      },
    },
    (request) => twoFactor.start(ctx, sessionOf(request)),
  );

  api.post(
    '/user/confirm-two-factor',
    {
      ...adminOnly,
      schema: {
        tags,
        security,
        body: confirmTwoFactorRequest,
        response: { 200: recoveryCodesResponse, ...errorResponses },
      },
    },
    (request) => twoFactor.confirm(ctx, sessionOf(request), request.body, request.ip),
  );

  api.post(
    '/user/renew-recovery-codes',
    {
      ...signedIn,
      schema: {
        tags,
        security,
        body: proofRequest,
        response: { 200: recoveryCodesResponse, ...errorResponses },
      },
    },
    (request) => twoFactor.renewRecoveryCodes(ctx, sessionOf(request), request.body, request.ip),
  );

  api.post(
    '/user/turn-off-two-factor',
    {
      ...signedIn,
      schema: { tags, security, body: proofRequest, response: { 200: messageResponse, ...errorResponses } },
    },
    (request) => twoFactor.turnOff(ctx, sessionOf(request), request.body, request.ip),
  );
}
