import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { booked, bookingPage, evening, freeSlots } from '../booking/booking-helpers';
import { expectStatus } from '../directory/directory-helpers';
import { withDatabase } from '../global-setup';
import { apnsStandIn, fcmStandIn, selfSignedCertificate } from '../push/native-stand-ins';
import { type ServerProcess, startServer } from '../server-process';
import { createTestApp, type TestApp } from '../test-app';
import { waitFor } from './fault-support';

// Issue 40: a booking's pushes to an Android and an iPhone committed by a server that stopped before any
// worker sent them are delivered once, by one of two real server processes (main.ts, as `npm start` runs
// it) configured for FCM and APNs by their environment, against local stand-ins of both services whose
// certificate the processes trust through NODE_EXTRA_CA_CERTS. PostgreSQL only (api-soak, as CI runs it).

const ANDROID_TOKEN = `cX9-android:APA91b${'P'.repeat(120)}`;
const IPHONE_TOKEN = 'b2'.repeat(32);

describe.runIf(process.env.TEST_DB === 'pg')(
  'native push across a restart, with two server processes',
  () => {
    const certificate = selfSignedCertificate();
    const files = mkdtempSync(join(tmpdir(), 'parley-native-push-'));
    let t: TestApp;
    const servers: ServerProcess[] = [];
    let fcm: Awaited<ReturnType<typeof fcmStandIn>>;
    let apns: Awaited<ReturnType<typeof apnsStandIn>>;

    beforeAll(async () => {
      fcm = await fcmStandIn(certificate);
      apns = await apnsStandIn(certificate);
      t = await createTestApp();
    }, 120_000);
    afterAll(async () => {
      await Promise.all(servers.map((server) => server.stop()));
      await t?.close();
      await fcm?.close();
      await apns?.close();
      rmSync(files, { recursive: true, force: true });
    });

    it('delivers each push once, by whichever process leases it', async () => {
      const e = await evening(t, { quick: true });
      const register = async (token: string, body: Record<string, unknown>) =>
        expectStatus(await e.http.post('users/register-token', token, body), 200);
      await register(e.parent.token, { deviceToken: ANDROID_TOKEN, platform: 'android' });
      await register(e.teachers[0]?.token ?? '', { deviceToken: IPHONE_TOKEN, platform: 'ios' });
      const page = await bookingPage(e, e.parent.token, e.code);
      await booked(e, e.parent.token, [
        {
          slotId: freeSlots(page.grid, e.teachers[0]?.id ?? 0)[0] ?? 0,
          studentId: e.children[0]?.id ?? 0,
          subjectId: e.subjects[0] ?? 0,
        },
      ]);
      // The server that took the booking stops before any worker ran (the test app runs none).
      await t.app.close();
      const pending = () =>
        t.db.selectFrom('push_outbox').select(['status']).where('status', '=', 'pending').execute();
      expect(await pending()).toHaveLength(2);

      writeFileSync(join(files, 'ca.pem'), certificate.cert);
      writeFileSync(join(files, 'service-account.json'), JSON.stringify(fcm.account));
      writeFileSync(join(files, 'apns.p8'), apns.key);
      const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(t.db);
      const databaseUrl = withDatabase(inject('pgAdminUrl'), rows[0]?.name ?? '');
      servers.push(
        ...(await Promise.all(
          [1, 2].map(() =>
            startServer({
              databaseUrl,
              NODE_EXTRA_CA_CERTS: join(files, 'ca.pem'),
              FCM_SERVICE_ACCOUNT_FILE: join(files, 'service-account.json'),
              FCM_API_URL: fcm.url,
              APNS_KEY_FILE: join(files, 'apns.p8'),
              APNS_KEY_ID: 'ABC123DEFG',
              APNS_TEAM_ID: 'TEAM123456',
              APNS_TOPIC: 'app.parley.mobile',
              APNS_HOST: apns.origin,
            }),
          ),
        )),
      );
      await waitFor('both phones’ pushes to be sent', async () => (await pending()).length === 0, 30_000);
      // A few more passes of both workers: nothing is sent again.
      await new Promise((resolve) => setTimeout(resolve, 3000));
      expect(fcm.messages).toHaveLength(1);
      expect(
        (fcm.messages[0]?.body as { message?: { token: string; data: { action: string } } } | undefined)
          ?.message,
      ).toMatchObject({
        token: ANDROID_TOKEN,
        data: { action: 'booking' },
      });
      expect(apns.requests).toHaveLength(1);
      expect(apns.requests[0]?.path).toBe(`/3/device/${IPHONE_TOKEN}`);
      expect(apns.requests[0]?.headers['apns-topic']).toBe('app.parley.mobile');
    }, 120_000);
  },
);
