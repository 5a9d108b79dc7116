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
import { SERVER_TEXT } from '@parley/domain/messages';
import { loginOrChallengeResponse, secondFactorRequest } from '@parley/domain/two-factor';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { type Api, errorResponses } from '../../lib/api';
import { endedPageSessionCookie, pageSessionCookie } from '../../lib/page-session';
import { sessionClient } from '../../lib/session-client';
import { bearerToken, requireSession, sessionOf } from '../../plugins/auth';
import * as accounts from './accounts.service';
import { completeSecondFactor } from './second-factor-login';

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
    (request) => accounts.verifyEmail(ctx, request.query.token, sessionClient(request)),
  );

  api.post(
    '/site/resend-school-verification',
    { schema: { tags, body: emailRequest, response: { 200: messageResponse, ...errorResponses } } },
    (request) => accounts.resendSchoolVerification(ctx, request.body.email, request.ip),
  );

  api.post(
    '/user/login',
    {
      schema: {
        tags,
        description:
          'A session, or — with two-factor sign-in on — `secondFactorRequired` and a challenge for POST user/login-second-factor.',
        body: loginRequest,
        response: { 200: loginOrChallengeResponse, ...errorResponses },
      },
    },
    (request, reply) =>
      accounts.login(ctx, request.body, sessionClient(request), { config: ctx.config, request, reply }),
  );

  api.post(
    '/user/login-second-factor',
    {
      schema: {
        tags,
        description: "The login's second step: the challenge and a 6-digit code or a recovery code.",
        body: secondFactorRequest,
        response: { 200: loginResponse, ...errorResponses },
      },
    },
    (request, reply) =>
      completeSecondFactor(ctx, request.body, sessionClient(request), { config: ctx.config, request, reply }),
  );

  api.post(
    '/user/logout',
    { schema: { tags, body: z.unknown().optional(), response: { 200: messageResponse, ...errorResponses } } },
    (request, reply) => {
      // This browser's pages forget the session too (lib/page-session.ts).
      reply.header('set-cookie', endedPageSessionCookie(request));
      return accounts.logout(ctx, bearerToken(request));
    },
  );

  // Decision 028: the web app hands its session to this browser's page requests, so home arrives rendered.
  api.post(
    '/user/page-session',
    {
      onRequest: requireSession(ctx.db),
      schema: {
        tags,
        security: [{ bearer: [] }],
        description:
          "Keeps the request's session in an HttpOnly cookie that only page requests use (the server renders the signed-in home with it); the API never reads it.",
        body: z.unknown().optional(),
        response: { 200: messageResponse, ...errorResponses },
      },
    },
    (request, reply) => {
      reply.header('set-cookie', pageSessionCookie(request, sessionOf(request).token));
      return { message: SERVER_TEXT.pageSessionKept };
    },
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
