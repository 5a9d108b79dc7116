import { randomUUID } from 'node:crypto';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import fastifyWebsocket from '@fastify/websocket';
import { APP_VERSION } from '@parley/domain/constants';
import { SERVER_TEXT } from '@parley/domain/messages';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { Redis } from 'ioredis';
import type { Config } from './config';
import type { AppContext } from './context';
import type { Db } from './db/database';
import { Background } from './lib/background';
import { type BotCheck, noBotCheck, turnstileBotCheck } from './lib/bot-check';
import { appErrorReporter, type ErrorReporter } from './lib/error-report';
import { HttpError } from './lib/http-error';
import { Metrics } from './lib/metrics';
import { MemoryStore, RateLimiter, type RateLimitStore, RedisStore } from './lib/rate-limiter';
import { accountRoutes } from './modules/accounts/accounts.routes';
import { auditRoutes } from './modules/audit/audit.routes';
import { billingRoutes } from './modules/billing/billing.routes';
import { bookingRoutes } from './modules/booking/booking.routes';
import { bulkAddRoutes } from './modules/bulk-add/bulk-add.routes';
import { devMailboxRoutes } from './modules/dev-mailbox/dev-mailbox.routes';
import { eventRoutes } from './modules/events/events.routes';
import { healthRoutes } from './modules/health/health.routes';
import { invitationRoutes } from './modules/invitations/invitations.routes';
import { jobRoutes } from './modules/jobs/jobs.routes';
import { liveRoutes } from './modules/live/live.routes';
import { type LiveClock, LiveHub } from './modules/live/live-hub';
import { loadTestRoutes } from './modules/load-test/load-test.routes';
import { messageRoutes } from './modules/messages/messages.routes';
import { metricsRoutes } from './modules/metrics/metrics.routes';
import { peopleRoutes } from './modules/people/people.routes';
import { profileRoutes } from './modules/profile/profile.routes';
import { pushRoutes } from './modules/push/push.routes';
import { schoolRoutes } from './modules/school/school.routes';
import { siteRoutes } from './modules/site/site.routes';
import { subjectRoutes } from './modules/subjects/subjects.routes';
import { ticketRoutes } from './modules/tickets/tickets.routes';
import { userRoutes } from './modules/users/users.routes';
import { registerAuth } from './plugins/auth';
import { registerCompression } from './plugins/compression';
import { registerErrorHandling } from './plugins/errors';
import { registerInputHygiene } from './plugins/input-hygiene';
import { registerMetrics } from './plugins/metrics';
import { registerNativeAppCors } from './plugins/native-app-cors';
import { RequestLog } from './plugins/request-log';
import { registerSecurityHeaders, swaggerUiCsp } from './plugins/security-headers';
import { registerWebApp } from './plugins/web-app';
import { type PushGuard, pushGuard } from './push/push-guard';
import { vapidKeysOnce } from './push/vapid';

export type BuildOptions = {
  db: Db;
  config: Config;
  botCheck?: BotCheck;
  rateLimitStore?: RateLimitStore;
  /** Tests pass their own to wait for it; otherwise one logging to the app's logger. */
  background?: Background;
  logger?: boolean;
  /** Resolves once the database is migrated; API requests wait for it (the app's files do not). */
  databaseReady?: Promise<void>;
  /** Shared with main.ts's workers, whose failures count too; otherwise the app's own. */
  metrics?: Metrics;
  /** Where unhandled errors go besides the log (lib/error-report.ts); otherwise from the configuration. */
  reportError?: ErrorReporter;
  /**
   * The test seam of push (issue 35): which endpoints a subscription may name. Only code passes one (the
   * tests that deliver to their own listener on 127.0.0.1); the server's is always
   * pushGuard(config.pushServiceHosts), and no setting changes that.
   */
  pushGuard?: PushGuard;
  /** The live channel's clock (modules/live/live-hub.ts): tests pass one they move themselves. */
  liveClock?: LiveClock;
};

/** The whole HTTP app, without listen(): main.ts listens, tests call inject(). */
export async function buildApp(options: BuildOptions): Promise<FastifyInstance> {
  const { config, db } = options;
  const app = Fastify({
    logger: options.logger === false ? false : { level: config.logLevel },
    bodyLimit: 1_048_576,
    // X-Forwarded-For is believed only from the proxies TRUST_PROXY names (decision 032): believing a whole
    // private network let any client on it pass as anyone, this machine included.
    trustProxy: config.trustProxy,
    routerOptions: { maxParamLength: 200 },
    // Our own id for every request: in each of its log lines, its X-Request-Id header and a 5xx body.
    // A client's header is not taken (it could forge or collide with another request's lines).
    genReqId: () => randomUUID(),
    // One line per request, with its id (plugins/request-log.ts).
    logController: new RequestLog(),
  });
  // SIGTERM: answers still in flight close their keep-alive connection, so the drain ends with them
  // (an idle keep-alive socket would otherwise hold server.close() open).
  let draining = false;
  app.addHook('preClose', async () => {
    draining = true;
  });
  app.addHook('onSend', async (_request, reply) => {
    if (draining) reply.header('connection', 'close');
  });
  if (config.trustProxy === false) warnOfUntrustedProxy(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerSecurityHeaders(app, config);
  registerNativeAppCors(app, config);
  registerCompression(app);
  const metrics = options.metrics ?? new Metrics();
  const reportError =
    options.reportError ?? appErrorReporter(config, metrics, (message) => app.log.warn(message));
  registerErrorHandling(app, reportError);
  registerMetrics(app, metrics);
  registerAuth(app, db);
  registerInputHygiene(app);
  const { databaseReady } = options;
  if (databaseReady) {
    // The server listens while the embedded database is still starting (a fresh PGlite takes seconds):
    // the page loads at once and its first API calls simply wait a moment.
    app.addHook('onRequest', async (request) => {
      // Liveness and readiness answer at once: that the database is not ready yet is their answer.
      if (request.url.startsWith('/api/') && !/^\/api\/(health|ready)\b/.test(request.url))
        await databaseReady;
    });
  }

  // An empty JSON body is "no body" (a bodiless POST from a client that always sends the JSON header).
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    if (body === '') return done(null, undefined);
    try {
      done(null, JSON.parse(body as string));
    } catch {
      done(new HttpError(400, SERVER_TEXT.malformedJson), undefined);
    }
  });

  const store =
    options.rateLimitStore ??
    (config.redisUrl
      ? new RedisStore(new Redis(config.redisUrl, { lazyConnect: false }))
      : new MemoryStore());
  let databaseStarted = !databaseReady;
  databaseReady?.then(
    () => {
      databaseStarted = true;
    },
    () => {}, // main.ts stops the process
  );
  const ctx: AppContext = {
    db,
    config,
    rateLimiter: new RateLimiter(store),
    botCheck:
      options.botCheck ?? (config.turnstileSecret ? turnstileBotCheck(config.turnstileSecret) : noBotCheck),
    background: options.background ?? new Background(app.log),
    metrics,
    databaseStarted: () => databaseStarted,
    live: new LiveHub(db, app.log, options.liveClock),
  };
  // Mails promised in answers already sent are written before the database goes (SIGTERM → app.close()).
  app.addHook('onClose', () => ctx.background.close());
  app.addHook('onClose', () => ctx.rateLimiter.close());
  // The live channel's sockets (modules/live/): a call's offer is a few KB; nothing over 64 KB is read.
  await app.register(fastifyWebsocket, { options: { maxPayload: 65_536 } });
  app.addHook('preClose', async () => ctx.live.close());

  await app.register(fastifySwagger, {
    openapi: {
      info: { title: `${config.appName} API`, version: APP_VERSION },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer' },
          // The personal link of an invitation mail, for a family booking without a password.
          bookingLink: { type: 'apiKey', in: 'header', name: 'X-Booking-Link' },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  // API_DOCS: in production the docs are off unless asked for (they map every route for a stranger).
  if (config.apiDocs)
    await app.register(fastifySwaggerUi, { routePrefix: '/api/docs', ...swaggerUiCsp(config) });

  await app.register(
    async (scope) => {
      const api = scope.withTypeProvider<ZodTypeProvider>();
      healthRoutes(api, ctx);
      metricsRoutes(api, ctx);
      accountRoutes(api, ctx);
      invitationRoutes(api, ctx);
      userRoutes(api, ctx);
      peopleRoutes(api, ctx);
      bulkAddRoutes(api, ctx);
      subjectRoutes(api, ctx);
      schoolRoutes(api, ctx);
      profileRoutes(api, ctx);
      pushRoutes(
        api,
        ctx,
        vapidKeysOnce(db, config),
        options.pushGuard ?? pushGuard(config.pushServiceHosts),
      );
      siteRoutes(api, ctx);
      liveRoutes(api, ctx);
      eventRoutes(api, ctx);
      bookingRoutes(api, ctx);
      messageRoutes(api, ctx);
      jobRoutes(api, ctx);
      ticketRoutes(api, ctx);
      auditRoutes(api, ctx);
      loadTestRoutes(api, ctx);
      billingRoutes(api, ctx);
      if (config.devMailbox) devMailboxRoutes(api, ctx);
    },
    { prefix: '/api' },
  );

  await registerWebApp(app, config.webDist, config.pageRenderWaitMs);
  return app;
}

/**
 * Behind a proxy TRUST_PROXY does not name, every client counts as the proxy's one address (one school's
 * failed logins would lock out the rest): said once in the log, so a deployer sees it on the first day.
 */
function warnOfUntrustedProxy(app: FastifyInstance): void {
  let warned = false;
  app.addHook('onRequest', async (request) => {
    if (warned || request.headers['x-forwarded-for'] === undefined) return;
    warned = true;
    request.log.warn(
      "A request came through a proxy (X-Forwarded-For) but TRUST_PROXY is not set: every client counts as the proxy's address. Set TRUST_PROXY to the proxy's addresses (README, Configuration).",
    );
  });
}
