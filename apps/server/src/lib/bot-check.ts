/** Returns true when the request passed the bot check (or when no check is configured). */
export type BotCheck = (token: string | undefined, ip: string) => Promise<boolean>;

export const noBotCheck: BotCheck = async () => true;

/** Cloudflare Turnstile's server-side verification. Fails closed: no answer means no login. */
export function turnstileBotCheck(secret: string): BotCheck {
  return async (token, ip) => {
    if (!token) return false;
    try {
      const response = await fetch('https://challenges.cloudflare.com/turnstile/v0/siteverify', {
        method: 'POST',
        body: new URLSearchParams({ secret, response: token, remoteip: ip }),
        signal: AbortSignal.timeout(5000),
      });
      const result = (await response.json()) as { success?: boolean };
      return result.success === true;
    } catch {
      return false;
    }
  };
}

/** Whether a real check stands at the door (Turnstile configured, or a test's own). */
export const isBotCheckConfigured = (check: BotCheck): boolean => check !== noBotCheck;
