import { buildApp } from './app';
import { ConfigError, parseConfig } from './config';
import { openDatabase } from './db/database';
import { migrateToLatest } from './db/migrate';
import { checkSessionConnections } from './db/session-check';
import { appErrorReporter } from './lib/error-report';
import { Metrics } from './lib/metrics';
import { startMailWorker } from './mail/mail-worker';
import { devMailboxTransport, smtpTransport } from './mail/transport';
import { startJobWorker } from './modules/jobs/job-worker';
import { sweepLeftovers } from './modules/load-test/load-test.service';
import { nativeSenders } from './push/native-senders';
import { pushGuard } from './push/push-guard';
import { startPushWorker } from './push/push-worker';
import { vapidKeysOnce } from './push/vapid';

async function main(): Promise<void> {
  const config = parseConfig(process.env);
  // Behind a pooler that shares sessions, announcements and prepared statements would fail unseen.
  if (config.databaseUrl) await checkSessionConnections(config.databaseUrl);
  const db = openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.databasePoolSize,
  });
  // Migrations run while the server starts listening; API requests wait for them (app.ts).
  const databaseReady = migrateToLatest(db);
  databaseReady.catch((error: unknown) => {
    console.error(
      'Parley failed to start: database migration failed:',
      error instanceof Error ? error.message : error,
    );
    process.exit(1);
  });
  const metrics = new Metrics();
  // Its own failures are logged by the app, which exists before anything can fail.
  const reportError = appErrorReporter(config, metrics, (message) => app.log.warn(message));
  const app = await buildApp({ db, config, databaseReady, metrics, reportError });
  const transport = config.smtpUrl
    ? smtpTransport(config)
    : devMailboxTransport(db, (line) => app.log.info(line));
  let worker: { stop(): Promise<void> } | undefined;
  let pushWorker: { stop(): Promise<void> } | undefined;
  let jobWorker: { stop(): Promise<void> } | undefined;

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal}: shutting down`);
    await app.close();
    await worker?.stop();
    await pushWorker?.stop();
    await jobWorker?.stop();
    await db.destroy();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  await databaseReady;
  // What a rehearsal of the last process left (decision 022): its synthetic rows go at start-up.
  await sweepLeftovers(db).catch((error: unknown) =>
    app.log.warn({ err: error }, 'load-test sweep failed; the next rehearsal retries it'),
  );
  worker = startMailWorker({
    db,
    transport,
    intervalMs: 1000,
    onError: (error) => {
      app.log.warn({ err: error }, 'mail worker pass failed; retrying');
      reportError(error, { source: 'mail-worker' });
    },
  });
  // Outside any request: the system scope, like the mail worker (db/scope.ts).
  pushWorker = startPushWorker({
    db,
    channels: {
      keys: vapidKeysOnce(db, config),
      guard: pushGuard(config.pushServiceHosts),
      native: nativeSenders(config),
    },
    reminders: { product: config.appName, appUrl: config.appUrl },
    intervalMs: 1000,
    onError: (error) => {
      app.log.warn({ err: error }, 'push worker pass failed; retrying');
      reportError(error, { source: 'push-worker' });
    },
  });
  // Jobs a stopped process left half done (decision 037), taken up once their lease has passed.
  jobWorker = startJobWorker({
    deps: { db, config },
    intervalMs: 5000,
    onError: (error) => {
      app.log.warn({ err: error }, 'job worker pass failed; retrying');
      reportError(error, { source: 'job-worker' });
    },
  });
  if (config.devMailbox) {
    const who = config.devMailboxOpen
      ? 'ANYONE who can reach this server (DEV_MAILBOX_OPEN=true)'
      : 'clients on this machine only';
    app.log.warn(
      `MAIL IS NOT BEING SENT: SMTP_URL is not set. Every mail, with its sign-in, reset and invitation links, is kept in the dev mailbox at ${config.appUrl}/dev/mailbox, open to ${who}. Set SMTP_URL to send mail.`,
    );
  }
  const where = config.databaseUrl ? 'PostgreSQL' : `embedded PGlite in ${config.dataDir}`;
  app.log.info(
    `${config.appName} on ${config.appUrl} (${where}${config.devMailbox ? ', dev mailbox at /dev/mailbox' : ''})`,
  );
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error('Parley failed to start:', error instanceof Error ? error.message : error);
  }
  process.exit(1);
});
