import type { Kysely } from 'kysely';
import { type Migration, Migrator } from 'kysely/migration';
import { applyFunctionFiles, staleFunctionFiles } from './function-files';
import * as accounts from './migrations/001-accounts';
import * as directory from './migrations/002-directory';
import * as events from './migrations/003-events';
import * as booking from './migrations/004-booking';
import * as mailAtRest from './migrations/005-mail-at-rest';
import * as tickets from './migrations/006-tickets';
import * as audit from './migrations/007-audit';
import * as accountSecurity from './migrations/008-accounts';
import * as rowLevelSecurity from './migrations/009-row-level-security';
import * as push from './migrations/010-push';
import * as bookingReminders from './migrations/012-booking-reminders';
import * as billing from './migrations/013-billing';
import * as loadTest from './migrations/014-load-test';
import * as levelEarlyDatabases from './migrations/015-level-early-databases';
import * as schoolWallOrder from './migrations/016-school-wall-order';
import * as slotsByTeacher from './migrations/017-slots-by-teacher';
import * as sessionChanges from './migrations/018-session-changes';
import * as slotFreed from './migrations/019-slot-freed';
import * as slotLabels from './migrations/020-slot-labels';
import * as eventVersions from './migrations/021-event-versions';
import * as bookingInFewerTrips from './migrations/022-booking-in-fewer-trips';
import * as placesFromBookings from './migrations/023-places-from-bookings';
import * as scanWindow from './migrations/024-scan-window';
import * as functionFiles from './migrations/025-function-files';
import * as bookingsInTimeOrder from './migrations/026-bookings-in-time-order';
import * as peopleSearch from './migrations/027-people-search';
import * as jobs from './migrations/028-jobs';
import * as nativePushAndDayReminders from './migrations/029-native-push-and-day-reminders';
import * as liveTiming from './migrations/030-live-timing';
import * as videoCalls from './migrations/031-video-calls';
import * as callPresence from './migrations/032-call-presence';
import * as callInvitations from './migrations/033-call-invitations';
import { asOwner } from './scope';

// Listed statically so the bundle and tests need no file-system scan.
const migrations: Record<string, Migration> = {
  '001-accounts': accounts,
  '002-directory': directory,
  '003-events': events,
  '004-booking': booking,
  '005-mail-at-rest': mailAtRest,
  '006-tickets': tickets,
  '007-audit': audit,
  '008-accounts': accountSecurity,
  '009-row-level-security': rowLevelSecurity,
  '010-push': push,
  '012-booking-reminders': bookingReminders,
  '013-billing': billing,
  '014-load-test': loadTest,
  '015-level-early-databases': levelEarlyDatabases,
  '016-school-wall-order': schoolWallOrder,
  '017-slots-by-teacher': slotsByTeacher,
  '018-session-changes': sessionChanges,
  '019-slot-freed': slotFreed,
  '020-slot-labels': slotLabels,
  '021-event-versions': eventVersions,
  '022-booking-in-fewer-trips': bookingInFewerTrips,
  '023-places-from-bookings': placesFromBookings,
  '024-scan-window': scanWindow,
  '025-function-files': functionFiles,
  '026-bookings-in-time-order': bookingsInTimeOrder,
  '027-people-search': peopleSearch,
  '028-jobs': jobs,
  '029-native-push-and-day-reminders': nativePushAndDayReminders,
  '030-live-timing': liveTiming,
  '031-video-calls': videoCalls,
  '032-call-presence': callPresence,
  '033-call-invitations': callInvitations,
};

const migratorOf = (
  // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
  db: Kysely<any>,
) => new Migrator({ db, provider: { getMigrations: async () => migrations } });

/**
 * Names of the migrations this build has that the database has not run, else of the function files it
 * has not applied as they are now (db/function-files.ts; reads the database).
 */
export async function pendingMigrations(
  // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
  db: Kysely<any>,
): Promise<string[]> {
  const all = await asOwner(() => migratorOf(db).getMigrations());
  const pending = all.filter((migration) => !migration.executedAt).map((migration) => migration.name);
  if (pending.length > 0) return pending;
  return (await asOwner(() => staleFunctionFiles(db))).map((file) => `functions/${file}`);
}

export async function migrateToLatest(
  // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
  db: Kysely<any>,
): Promise<void> {
  // As the tables' owner: creating them and their policies is not the app role's to do.
  const { error, results } = await asOwner(() => migratorOf(db).migrateToLatest());
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
  // Then the function files changed since they were last applied (their bodies live there, not in the
  // migrations: db/function-files.ts).
  await asOwner(() => applyFunctionFiles(db)).catch((cause: unknown) => {
    throw new Error(`Applying the function files failed: ${String(cause)}`);
  });
}
