// What an error-report DSN (ERROR_REPORT_DSN, decision 023) names: read by config.ts when the
// configuration is parsed, used by error-report.ts to send. Its own module so that neither of those two
// imports the other's runtime code (config.ts ↔ error-report.ts was an import cycle).

/** Where a DSN (`https://<public key>@<host>[/<path>]/<project id>`) sends its events. */
export type SentryTarget = { dsn: string; publicKey: string; envelopeUrl: string };

/** The DSN's parts, or undefined when it is not one (no key, no project id, not http or https). */
export function parseSentryDsn(dsn: string): SentryTarget | undefined {
  let url: URL;
  try {
    url = new URL(dsn);
  } catch {
    return undefined;
  }
  const path = url.pathname.replace(/\/+$/, '');
  const projectId = path.slice(path.lastIndexOf('/') + 1);
  if (!['http:', 'https:'].includes(url.protocol) || !url.username || !/^\d+$/.test(projectId))
    return undefined;
  const prefix = path.slice(0, path.lastIndexOf('/'));
  return {
    dsn,
    publicKey: decodeURIComponent(url.username),
    envelopeUrl: `${url.protocol}//${url.host}${prefix}/api/${projectId}/envelope/`,
  };
}
