import { currentUser, messageResponse } from '@parley/domain/auth';
import { idQuery } from '@parley/domain/people';
import {
  changePasswordRequest,
  profileUpdate,
  settingsResponse,
  settingsUpdate,
} from '@parley/domain/school';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { type Api, errorResponses } from '../../lib/api';
import { requireSession, sessionOf } from '../../plugins/auth';
import * as profile from './profile.service';

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
    (request) => profile.updateUser(ctx, sessionOf(request), request.query.id, request.body),
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
        body: z.strictObject({ deviceToken: z.string().min(1).max(4096) }),
        response: { 200: messageResponse, ...errorResponses },
      },
    },
    (request) => profile.registerDeviceToken(ctx, sessionOf(request).userId, request.body.deviceToken),
  );
}
