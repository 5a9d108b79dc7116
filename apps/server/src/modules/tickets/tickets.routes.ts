import {
  checkInRequest,
  checkInResponse,
  doorQuery,
  doorResponse,
  eventTicketQuery,
  eventTicketResponse,
  generateTicketsRequest,
  generateTicketsResponse,
  offlineListQuery,
  offlineListResponse,
  scanTicketRequest,
  scanTicketResponse,
  syncScansRequest,
  syncScansResponse,
  undoScanRequest,
  validateTicketQuery,
  validateTicketResponse,
} from '@parley/domain/tickets';
import type { AppContext } from '../../context';
import { actorOf } from '../../lib/actor';
import { type Api, errorResponses } from '../../lib/api';
import { requireSession, sessionOf } from '../../plugins/auth';
import * as tickets from './tickets.service';

// Spec §7 Tickets, and the door. Who may do what is the service's (spec §6): a person's own and their
// children's tickets, every ticket for the school's admins, validating and scanning for admins and the
// event's scanners.
export function ticketRoutes(api: Api, ctx: AppContext): void {
  const tags = ['tickets'];
  const security = [{ bearer: [] }];
  const signedIn = { onRequest: requireSession(ctx.db) };
  const admin = { onRequest: requireSession(ctx.db, ['admin']) };
  const ok = <T>(schema: T) => ({ 200: schema, ...errorResponses });

  api.get(
    '/tickets/get-event-ticket',
    {
      ...signedIn,
      schema: { tags, security, querystring: eventTicketQuery, response: ok(eventTicketResponse) },
    },
    (request) => tickets.eventTicket(ctx, sessionOf(request), request.query.eventId, request.query.userId),
  );

  api.get(
    '/tickets/validate-ticket',
    {
      ...signedIn,
      schema: { tags, security, querystring: validateTicketQuery, response: ok(validateTicketResponse) },
    },
    (request) =>
      tickets.validateTicket(ctx, sessionOf(request), request.query.ticketId, request.query.eventId),
  );

  api.post(
    '/tickets/scan-ticket',
    { ...signedIn, schema: { tags, security, body: scanTicketRequest, response: ok(scanTicketResponse) } },
    (request) => {
      const { ticketId, ...rest } = request.body;
      return tickets.scanTicket(ctx, sessionOf(request), { ...rest, ticket: { code: ticketId } });
    },
  );

  api.post(
    '/tickets/check-in',
    { ...signedIn, schema: { tags, security, body: checkInRequest, response: ok(checkInResponse) } },
    (request) => tickets.checkIn(ctx, sessionOf(request), request.body),
  );

  api.post(
    '/tickets/undo-scan',
    {
      ...admin,
      schema: { tags, security, body: undoScanRequest, response: ok(scanTicketResponse) },
    },
    (request) =>
      tickets.undoScan(
        ctx,
        sessionOf(request),
        request.body.id !== undefined ? { id: request.body.id } : { code: request.body.ticketId ?? '' },
        actorOf(request, sessionOf(request)),
      ),
  );

  api.post(
    '/tickets/generate-tickets',
    {
      ...admin,
      schema: { tags, security, body: generateTicketsRequest, response: ok(generateTicketsResponse) },
    },
    (request) =>
      tickets.generateTickets(
        ctx,
        sessionOf(request),
        request.body.eventId,
        request.body.userIds,
        actorOf(request, sessionOf(request)),
      ),
  );

  api.get(
    '/tickets/offline-list',
    {
      ...signedIn,
      schema: { tags, security, querystring: offlineListQuery, response: ok(offlineListResponse) },
    },
    (request) => tickets.offlineList(ctx, sessionOf(request), request.query.eventId),
  );

  api.post(
    '/tickets/sync-scans',
    { ...signedIn, schema: { tags, security, body: syncScansRequest, response: ok(syncScansResponse) } },
    (request) => tickets.syncScans(ctx, sessionOf(request), request.body),
  );

  api.get(
    '/tickets/door',
    { ...signedIn, schema: { tags, security, querystring: doorQuery, response: ok(doorResponse) } },
    (request) => tickets.door(ctx, sessionOf(request), request.query.eventId, request.query.q),
  );
}
