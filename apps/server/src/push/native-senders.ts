import { readFileSync } from 'node:fs';
import type { Config } from '../config';
import { ConfigError } from '../config';
import { apnsSender } from './apns-sender';
import { type FcmServiceAccount, fcmSender } from './fcm-sender';
import type { NativeSenders } from './push-worker';

/** The service account file's fields FCM needs; anything else in it is left alone. */
function serviceAccount(file: string): FcmServiceAccount {
  let parsed: Partial<Record<keyof FcmServiceAccount, unknown>>;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8')) as typeof parsed;
  } catch (error) {
    throw new ConfigError(
      `Invalid configuration: FCM_SERVICE_ACCOUNT_FILE could not be read as JSON (${(error as Error).message})`,
    );
  }
  const fields = ['project_id', 'client_email', 'private_key', 'token_uri'] as const;
  const missing = fields.filter((field) => typeof parsed[field] !== 'string' || parsed[field] === '');
  if (missing.length > 0) {
    throw new ConfigError(
      `Invalid configuration: FCM_SERVICE_ACCOUNT_FILE lacks ${missing.join(', ')} (use the key file the Firebase console generates)`,
    );
  }
  return parsed as FcmServiceAccount;
}

function apnsKey(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(
      `Invalid configuration: APNS_KEY_FILE could not be read (${(error as Error).message})`,
    );
  }
}

/** The native senders the configuration names, their keys read and checked at start. */
export function nativeSenders(config: Pick<Config, 'fcm' | 'apns'>): NativeSenders {
  const senders: NativeSenders = {};
  try {
    if (config.fcm)
      senders.fcm = fcmSender(serviceAccount(config.fcm.serviceAccountFile), { apiUrl: config.fcm.apiUrl });
    if (config.apns)
      senders.apns = apnsSender(
        {
          key: apnsKey(config.apns.keyFile),
          keyId: config.apns.keyId,
          teamId: config.apns.teamId,
          topic: config.apns.topic,
        },
        { origin: config.apns.origin },
      );
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(`Invalid configuration: ${(error as Error).message}`);
  }
  return senders;
}
