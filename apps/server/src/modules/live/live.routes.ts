import { errorResponse, messageResponse } from '@parley/domain/auth';
import {
  callInviteRequest,
  callQuery,
  callResponse,
  type LiveHello,
  liveClientMessage,
  liveHello,
  runningLateRequest,
  runningLateResponse,
} from '@parley/domain/live-schemas';
import { LIVE_CLOSE, LIVE_HELLO_MS, type LiveMessage } from '@parley/domain/live-timing';
import { SERVER_TEXT } from '@parley/domain/messages';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import { type Api, errorResponses } from '../../lib/api';
import { HttpError, unauthorized } from '../../lib/http-error';
import { authHook, requireSession, sessionOf } from '../../plugins/auth';
import { type Caller, callFor, inviteToCall, joinCall, saveSignal } from './calls.service';
import { identify, requestCaller } from './live.service';
import { markRunningLate } from './timing.service';

// Live timing (issue 41): a teacher says they run late; the open pages of the families it concerns hear it
// at once on the live channel, a WebSocket that carries news of what changed, never the data itself.
export function liveRoutes(api: Api, ctx: AppContext): void {
  const tags = ['live'];

  api.post(
    '/events/running-late',
    {
      onRequest: requireSession(ctx.db, ['teacher', 'admin']),
      schema: {
        tags,
        security: [{ bearer: [] }],
        body: runningLateRequest,
        response: { 200: runningLateResponse, ...errorResponses },
      },
    },
    (request) => markRunningLate(ctx, sessionOf(request), request.body),
  );

  // A video appointment's call (issue 41): its teacher, its family (signed in, or by the personal link of
  // their invitation mail) and the school's admins; for anyone else it does not exist.
  const callers = new WeakMap<FastifyRequest, Caller>();
  api.get(
    '/calls/join',
    {
      onRequest: authHook(async (request) => {
        const caller = await requestCaller(ctx, request);
        if (!caller) throw unauthorized(SERVER_TEXT.unauthenticated);
        callers.set(request, caller);
        return caller;
      }),
      schema: {
        tags,
        security: [{ bearer: [] }, { bookingLink: [] }],
        querystring: callQuery,
        response: { 200: callResponse, ...errorResponses },
      },
    },
    (request) => {
      const caller = callers.get(request);
      if (!caller) throw new Error('route is missing its caller hook');
      return callFor(ctx, caller, request.query.bookingId);
    },
  );

  api.post(
    '/calls/invite',
    {
      onRequest: requireSession(ctx.db, ['teacher']),
      schema: {
        tags,
        security: [{ bearer: [] }],
        body: callInviteRequest,
        response: { 200: messageResponse, ...errorResponses },
      },
    },
    (request) => inviteToCall(ctx, sessionOf(request), request.body),
  );

  // The socket is anyone's until its first message (a browser cannot set a WebSocket's headers): a live
  // session's token, or a personal booking link. Without one in time, or with one that names nobody, it
  // is closed with 4401 and the page signs in again before it retries.
  api.route({
    method: 'GET',
    url: '/live',
    schema: {
      tags,
      description: 'The live channel: a WebSocket (send {"type":"hello","token"} first).',
      response: { 426: errorResponse },
    },
    handler: async () => {
      throw new HttpError(426, 'Connect to the live channel with a WebSocket.');
    },
    wsHandler: (socket) => {
      let caller: Caller | null = null;
      let greeted = false;
      const send = (message: LiveMessage) => socket.send(JSON.stringify(message));
      const refuse = (code: number, reason: string) => socket.close(code, reason);
      const timer = setTimeout(() => refuse(LIVE_CLOSE.unauthorized, 'no hello'), LIVE_HELLO_MS);
      timer.unref();
      // Messages are handled one after another, in the order they came.
      let queue: Promise<void> = Promise.resolve();
      const limit = messageLimit();
      socket.on('message', (data, isBinary) => {
        if (!limit()) return refuse(1008, 'too many messages');
        const text = isBinary ? null : data.toString();
        queue = queue
          .then(() => (greeted ? heard(text) : hello(text)))
          .catch(() => refuse(1011, 'try again'));
      });
      const hello = async (text: string | null) => {
        greeted = true;
        clearTimeout(timer);
        const parsed = text === null ? null : liveHello.safeParse(parseJson(text));
        if (!parsed?.success) return refuse(LIVE_CLOSE.unauthorized, 'bad hello');
        const who = await identify(ctx, parsed.data);
        if (who === null) return refuse(LIVE_CLOSE.unauthorized, 'unknown');
        if (socket.readyState !== socket.OPEN) return;
        const credential = parsed.data;
        if (!ctx.live.join(who.userId, socket, () => recheck(credential)))
          return refuse(LIVE_CLOSE.tooMany, 'too many');
        caller = who;
        send({ type: 'ready' });
      };
      // The credential looked at again (live-hub.ts): one that names nobody now (signed out, expired,
      // revoked, disabled) closes the socket as a bad hello does; the same person with other roles is asked
      // to reconnect, so that each call is authorised again.
      const recheck = (credential: LiveHello): Promise<void> => {
        queue = queue
          .then(async () => {
            const was = caller;
            if (was === null || socket.readyState !== socket.OPEN) return;
            const now = await identify(ctx, credential);
            if (now?.userId !== was.userId || now.schoolId !== was.schoolId)
              return refuse(LIVE_CLOSE.unauthorized, 'signed out');
            if (now.roles.join() !== was.roles.join()) return refuse(LIVE_CLOSE.reconnect, 'roles changed');
          })
          .catch(() => {}); // not looked up this time: the next sweep looks again
        return queue;
      };
      // After the hello: a video call's join, signalling and leave (calls.service.ts authorises each).
      const heard = async (text: string | null) => {
        const parsed = text === null || caller === null ? null : liveClientMessage.safeParse(parseJson(text));
        if (!parsed?.success || caller === null) return;
        const message = parsed.data;
        const { bookingId } = message;
        if (message.type === 'call-join') {
          if (ctx.live.inCall(bookingId, socket)) return;
          const joined = await joinCall(ctx, caller, bookingId);
          if ('refused' in joined) return send({ type: 'call-refused', bookingId, message: joined.refused });
          ctx.live.enterCall(bookingId, caller.userId, socket, joined.endsAt);
          return send({ type: 'call-joined', bookingId, endsAt: joined.endsAt.toISOString() });
        }
        if (!ctx.live.inCall(bookingId, socket)) return;
        if (message.type === 'call-leave') {
          ctx.live.leaveCall(bookingId, socket);
          return saveSignal(ctx, caller, bookingId, { kind: 'left' });
        }
        return saveSignal(ctx, caller, bookingId, { kind: 'signal', data: message.data });
      };
      socket.on('close', () => {
        clearTimeout(timer);
        if (caller === null) return;
        const who = caller;
        for (const bookingId of ctx.live.leave(who.userId, socket))
          queue = queue.then(() => saveSignal(ctx, who, bookingId, { kind: 'left' })).catch(() => {});
      });
    },
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** A socket may send this many messages a second (a call's candidates come in bursts of a few dozen). */
const MESSAGES_PER_SECOND = 100;

function messageLimit(now = () => Date.now()): () => boolean {
  let second = 0;
  let count = 0;
  return () => {
    const current = Math.floor(now() / 1000);
    if (current !== second) {
      second = current;
      count = 0;
    }
    count += 1;
    return count <= MESSAGES_PER_SECOND;
  };
}
