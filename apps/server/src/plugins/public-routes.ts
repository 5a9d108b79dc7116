// Every API route that answers without a session, in one place. Any other route must authenticate in its
// onRequest hook (requireSession, or a family's booker): buildApp refuses to start otherwise.
export const PUBLIC_ROUTES: ReadonlySet<string> = new Set([
  // Service
  'GET /api/health',
  'GET /api/ready',
  // Prometheus text: its own bearer token (METRICS_TOKEN) or this machine only (plugins/metrics.ts)
  'GET /api/metrics',
  'GET /api/site/config',
  // The VAPID public key a browser subscribes to push with (public by design)
  'GET /api/site/push-key',
  // Accounts: signing up, in and out, and the links mailed for them (the token is the credential)
  'POST /api/site/signup',
  'GET /api/users/search-email-for-signup',
  'GET /api/site/verify-school',
  'GET /api/site/verify-email',
  'POST /api/site/resend-school-verification',
  'POST /api/user/login',
  // The login's second step: the challenge from the first step is the credential
  'POST /api/user/login-second-factor',
  'POST /api/user/logout',
  'POST /api/user/request-password-reset',
  'POST /api/user/reset-password',
  // Invitations (the invitation token is the credential)
  'GET /api/users/accept-admin-invite',
  'GET /api/users/accept-teacher-invite',
  'GET /api/users/accept-parent-invite',
  'GET /api/users/accept-student-invite',
  'POST /api/users/set-admin-password',
  'POST /api/users/set-teacher-password',
  'POST /api/users/set-new-password',
  'POST /api/user/resend-invitation',
  // The live channel: a WebSocket whose first message is its credential (a session or a personal link)
  'GET /api/live',
  // A booking page by its code: a visitor is asked to log in, a family sees its page
  'GET /api/events/book-event',
  // Stripe's webhook: its signature over the body is the credential (billing, decision 021)
  'POST /api/billing/stripe-webhook',
  // The dev mailbox (never in production; loopback clients only unless opened)
  'GET /api/dev/mailbox',
  'GET /api/dev/mailbox/view',
  'GET /api/dev/mailbox/attachment',
]);
