import {
  emailRequest,
  existsResponse,
  loginRequest,
  loginResponse,
  messageResponse,
  resetPasswordRequest,
  searchQuery,
  signupRequest,
  signupResponse,
  tokenQuery,
  verifyEmailResponse,
} from '@parley/domain/auth';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { type Api, errorResponses } from '../../lib/api';
import { bearerToken } from '../../plugins/auth';
import * as accounts from './accounts.service';

// Spec §7 Authentication. Thin: parse, call the service, answer.
export function accountRoutes(api: Api, ctx: AppContext): void {
  const tags = ['auth'];

  api.post(
    '/site/signup',
    { schema: { tags, body: signupRequest, response: { 200: signupResponse, ...errorResponses } } },
    (request) => accounts.signup(ctx, request.body, request.ip),
  );

  api.get(
    '/users/search-email-for-signup',
    { schema: { tags, querystring: searchQuery, response: { 200: existsResponse, ...errorResponses } } },
    (request) => accounts.emailTakenForSignup(ctx, request.query.q, request.ip),
  );

  api.get(
    '/site/verify-school',
    { schema: { tags, querystring: tokenQuery, response: { 200: messageResponse, ...errorResponses } } },
    (request) => accounts.verifySchool(ctx, request.query.token),
  );

  api.get(
    '/site/verify-email',
    { schema: { tags, querystring: tokenQuery, response: { 200: verifyEmailResponse, ...errorResponses } } },
    (request) => accounts.verifyEmail(ctx, request.query.token),
  );

  api.post(
    '/site/resend-school-verification',
    { schema: { tags, body: emailRequest, response: { 200: messageResponse, ...errorResponses } } },
    (request) => accounts.resendSchoolVerification(ctx, request.body.email, request.ip),
  );

  api.post(
    '/user/login',
    { schema: { tags, body: loginRequest, response: { 200: loginResponse, ...errorResponses } } },
    (request) => accounts.login(ctx, request.body, request.ip),
  );

  api.post(
    '/user/logout',
    { schema: { tags, body: z.unknown().optional(), response: { 200: messageResponse, ...errorResponses } } },
    (request) => accounts.logout(ctx, bearerToken(request)),
  );

  api.post(
    '/user/request-password-reset',
    { schema: { tags, body: emailRequest, response: { 200: messageResponse, ...errorResponses } } },
    (request) => accounts.requestPasswordReset(ctx, request.body.email, request.ip),
  );

  api.post(
    '/user/reset-password',
    {
      schema: {
        tags,
        querystring: tokenQuery,
        body: resetPasswordRequest,
        response: { 200: messageResponse, ...errorResponses },
      },
    },
    (request) => accounts.resetPassword(ctx, request.query.token, request.body.password),
  );
}
