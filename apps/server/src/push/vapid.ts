import webPush from 'web-push';
import type { Config } from '../config';
import type { Db } from '../db/database';
import { asSystem } from '../db/scope';
import { open, seal } from '../lib/secret-box';
import { insertSettingIfAbsent, readSetting } from './push.repository';

export type VapidKeys = { publicKey: string; privateKey: string; subject: string };

const PUBLIC = 'vapid.public_key';
const PRIVATE = 'vapid.private_key';
// Bound as the sealed value's context: the private key opens only as what it was sealed as.
const CONTEXT = 'app-settings:vapid.private_key';

/**
 * The VAPID pair: from the environment, else the one kept in app_settings, made by whichever instance
 * started first (insert-if-absent, then read back, so every instance signs with the same pair). The
 * private key is sealed at rest under DATA_ENCRYPTION_KEY (decision 015).
 */
export async function loadVapidKeys(db: Db, config: Config): Promise<VapidKeys> {
  if (config.vapidKeys) return { ...config.vapidKeys, subject: config.vapidSubject };
  return asSystem(async () => {
    const fresh = webPush.generateVAPIDKeys();
    await db.transaction().execute(async (trx) => {
      await insertSettingIfAbsent(trx, PUBLIC, fresh.publicKey);
      await insertSettingIfAbsent(trx, PRIVATE, seal(config.dataEncryptionKey, fresh.privateKey, CONTEXT));
    });
    const publicKey = await readSetting(db, PUBLIC);
    const sealed = await readSetting(db, PRIVATE);
    if (!publicKey || !sealed) throw new Error('VAPID keys missing from app_settings');
    return {
      publicKey,
      privateKey: open(config.dataEncryptionKey, sealed, CONTEXT),
      subject: config.vapidSubject,
    };
  });
}

/** Loads once per app; a failed load (database not ready) is tried again next time. */
export function vapidKeysOnce(db: Db, config: Config): () => Promise<VapidKeys> {
  let pending: Promise<VapidKeys> | undefined;
  return () => {
    pending ??= loadVapidKeys(db, config).catch((error: unknown) => {
      pending = undefined;
      throw error;
    });
    return pending;
  };
}
