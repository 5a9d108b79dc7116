import { bookingConflictResponse } from '@parley/domain/booking';
import type { FastifyInstance } from 'fastify';
import type { Metrics } from '../lib/metrics';

// What /api/metrics counts as requests go by (the route itself: modules/metrics): every answer timed by
// its route pattern, booking conflicts, and the event loop's delay.
export function registerMetrics(app: FastifyInstance, metrics: Metrics): void {
  const stopWatching = metrics.watchEventLoop();
  app.addHook('onClose', async () => stopWatching());

  // A booking conflict is a 409 from a route whose 409 is the booking conflict (the message and the fresh
  // grid): the booking service's lost races and broken rules, counted without reaching into it.
  const conflictRoutes = new Set<string>();
  app.addHook('onRoute', (route) => {
    const responses = route.schema?.response as Record<number, unknown> | undefined;
    if (responses?.[409] !== bookingConflictResponse) return;
    conflictRoutes.add(route.url);
    metrics.declareBookingConflictRoute(route.url);
  });

  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.observeRequest(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    if (reply.statusCode === 409 && conflictRoutes.has(route)) metrics.countBookingConflict(route);
  });
}
