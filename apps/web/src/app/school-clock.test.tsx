// A browser in New York set to American English (issue 36, point 9): every screen that shows a date or time
// must show the school's zone (a UK school: Europe/London) in the app's style, never the browser's. Set
// before anything reads the clock: Node reads TZ again when it changes.
process.env.TZ = 'America/New_York';

import { STORAGE_KEYS } from '@parley/domain/constants';
import type { EventListItem } from '@parley/domain/events';
import type { DoorState } from '@parley/domain/tickets';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DevMail } from '../features/dev-mailbox/api';
import { OfflineStatus } from '../features/tickets/components/offline-status';
import { TicketDialog } from '../features/tickets/components/ticket-dialog';
import { offlineResultPanel } from '../features/tickets/offline-logic';
import { doorTicket, ticket } from '../features/tickets/test-fixtures';
import { resetOfflineDoors } from '../features/tickets/use-offline-door';
import { queryClient } from '../lib/query-client';
import { reloadSession } from '../lib/session';
import { renderAt } from '../test-support/render-app';
import {
  adminUser,
  type Handler,
  json,
  type RecordedRequest,
  siteConfig,
  stubFetch,
} from '../test-support/screen-fixtures';
import { AppProviders } from './providers';

// 18:05 UTC on 3 July is 19:05 in London (BST) and 14:05 in New York (EDT).
const SCANNED = '2026-07-03T18:05:00.000Z';
const LONDON = 'Fri 3 Jul 2026, 19:05';
const AGAIN = '2026-07-03T18:20:00.000Z';
/** The browser's own style or clock: "7/3/2026", "2:05 PM", "14:05". */
const BROWSER_STYLE = /\d{1,2}\/\d{1,2}\/\d{2,4}|\b[AP]M\b|14:05|14:20/;

let routes: Record<string, Handler>;
let requests: RecordedRequest[];

const scanned = ticket({ scanned: true, scannedDate: SCANNED, scannedBy: 7, scannedByName: 'Ada Lovelace' });

function signIn() {
  localStorage.setItem(STORAGE_KEYS.accessToken, 'tok-1');
  localStorage.setItem(STORAGE_KEYS.currentUser, JSON.stringify(adminUser));
  reloadSession();
}

/** What the page says, with every label a tooltip gives its child. */
const shown = (root: HTMLElement = document.body) =>
  `${root.textContent ?? ''} ${Array.from(root.querySelectorAll('[aria-label]'), (node) => node.getAttribute('aria-label')).join(' ')}`;

beforeEach(() => {
  localStorage.clear();
  queryClient.clear();
  requests = [];
  routes = { '/api/site/config': () => json(200, siteConfig) };
  stubFetch(
    (path) => routes[path],
    () => requests,
  );
  signIn();
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  resetOfflineDoors();
  localStorage.clear();
  reloadSession();
});

describe('an en-US browser in New York, a school in London (issue 36)', () => {
  it('is what the test says it is: the browser alone would write the American way', () => {
    expect(new Date(SCANNED).toLocaleString()).toBe('7/3/2026, 2:05:00 PM');
  });

  it('Your Ticket: "Scanned: Fri 3 Jul 2026, 19:05"', async () => {
    routes['/api/tickets/get-event-ticket'] = () =>
      json(200, { data: { success: true, ticket: scanned, tickets: [scanned] } });
    render(
      <AppProviders>
        <TicketDialog
          open
          eventId={9}
          userId={31}
          eventName="Summer concert"
          userName="Jane Smith"
          onClose={() => {}}
        />
      </AppProviders>,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Your Ticket' });
    expect(await within(dialog).findByText(`Scanned: ${LONDON}`)).toBeTruthy();
    expect(shown(dialog)).not.toMatch(BROWSER_STYLE);
  });

  it('the scanner’s result (/t/{code}): Scanned at 19:05 London time', async () => {
    routes['/api/users/data'] = () => json(200, { data: adminUser });
    routes['/api/tickets/validate-ticket'] = () =>
      json(200, {
        data: { valid: true, message: `Already scanned ${LONDON} by Ada Lovelace.`, ticket: scanned },
      });
    renderAt('/t/AbCdEfGhIjKlMnOpQrStUv');
    expect(await screen.findByText(`${LONDON} (Ada Lovelace)`)).toBeTruthy();
    expect(shown()).not.toMatch(BROWSER_STYLE);
  });

  it('the door page: the latest admissions and the tickets admitted twice', async () => {
    const admitted = doorTicket({
      id: 502,
      userName: 'Tom Reed',
      scanned: true,
      scannedDate: SCANNED,
      scannedByName: 'Ada Lovelace',
    });
    const door: DoorState = {
      eventId: 9,
      eventName: 'Summer concert',
      timeZone: 'Europe/London',
      expected: 10,
      admitted: 1,
      toCome: 9,
      guestsExpected: 0,
      guestsAdmitted: 0,
      recent: [admitted],
      matches: [],
      duplicates: [
        { ticket: admitted, deviceId: 'phone-2', byName: 'Ben Fox', scannedAt: AGAIN, receivedAt: AGAIN },
      ],
    };
    routes['/api/tickets/door'] = () => json(200, door);
    renderAt('/events/door/9');
    const recent = await screen.findByRole('list', { name: 'Latest admissions' });
    expect(within(recent).getByText(`${LONDON} · Ada Lovelace`)).toBeTruthy();
    const twice = screen.getByRole('list', { name: 'Admitted twice' });
    expect(within(twice).getByText(`Again Fri 3 Jul 2026, 19:20 by Ben Fox · first ${LONDON}`)).toBeTruthy();
    expect(shown()).not.toMatch(BROWSER_STYLE);
  });

  it('the offline door: when the list was taken, when this door admitted, when it scanned', () => {
    const event = { eventName: 'Summer concert', timeZone: 'Europe/London' };
    const entry = { hash: 'h', userName: 'Jane Smith', guestIndex: 0, scanned: false };
    const queued = {
      ticketId: 'x',
      clientNonce: 'nonce-0001',
      scannedAt: SCANNED,
      hash: 'h',
      userName: 'Jane Smith',
    };
    const texts = [
      offlineResultPanel({ kind: 'admit', entry }, event, SCANNED),
      offlineResultPanel({ kind: 'already', entry, queued }, event),
      offlineResultPanel({ kind: 'stale', takenAt: SCANNED }, event),
    ].flatMap((panel) => [
      panel.message,
      panel.detail ?? '',
      ...(panel.lines ?? []).map((line) => line.value),
    ]);
    expect(texts).toContain(`${LONDON} (offline)`);
    expect(texts).toContain('Admitted by this door at 19:05 (offline, not sent yet).');
    expect(texts.join(' ')).toMatch(/taken at 19:05, more than 12 hours ago/);
    expect(texts.join(' ')).not.toMatch(BROWSER_STYLE);
    render(
      <OfflineStatus
        state={{
          offline: true,
          listState: 'fresh',
          listCount: 3,
          listTakenAt: SCANNED,
          timeZone: 'Europe/London',
          listLoading: false,
          waiting: 0,
          syncing: false,
          report: null,
          syncError: null,
        }}
        scanning
        onDismiss={() => {}}
      />,
    );
    expect(screen.getByTestId('door-offline').textContent).toContain('19:05');
    expect(shown()).not.toMatch(BROWSER_STYLE);
  });

  it('the events list: when an event was created, on the school’s clock', async () => {
    const item: EventListItem = {
      id: 5,
      name: 'Summer concert',
      eventTypeId: 2,
      eventTypeName: 'Ticketed event',
      eventTypeGroupInt: 2,
      status: 1,
      statusLabel: { text: 'Enabled', color: 'success' },
      code: 'ABC123',
      sections: [],
      sectionTimeLabels: [],
      bookingCountForEvent: 0,
      createdAt: SCANNED,
      createdAtHuman: '3 days ago',
      createdAtLabel: LONDON,
    };
    routes['/api/events/index'] = () =>
      json(200, { events: [item], eventTypes: [], message: 'Events listed.' });
    renderAt('/events');
    await screen.findByText('Summer concert');
    // The created cell's tooltip labels its text.
    const created = screen.getByText(
      (_, node) => node?.tagName === 'SPAN' && /\bago$/.test(node.textContent ?? ''),
    );
    fireEvent.mouseOver(created);
    expect(await screen.findByRole('tooltip')).toBeTruthy();
    expect(screen.getByRole('tooltip').textContent).toBe(LONDON);
    expect(shown()).not.toMatch(BROWSER_STYLE);
  });

  it('the subjects list: the day each was added, on the school’s clock', async () => {
    // Midnight UTC on 1 January is still 31 December in New York, and 1 January in London.
    routes['/api/subjects/index'] = () =>
      json(200, {
        items: [
          {
            id: 1,
            name: 'Maths',
            teacherCount: 2,
            studentCount: 0,
            createdAt: '2026-01-01T00:00:00Z',
            createdAtLabel: 'Thu 1 Jan 2026',
          },
        ],
      });
    renderAt('/subjects');
    expect(await screen.findByText('Thu 1 Jan 2026')).toBeTruthy();
    expect(shown()).not.toMatch(/Dec 2025/);
    expect(shown()).not.toMatch(BROWSER_STYLE);
  });

  it('the dev mailbox: every school’s mail, in UTC and the app’s style', async () => {
    const mail: DevMail = {
      id: 12,
      to: 'ann@hill.test',
      subject: 'Your booking for Summer concert',
      text: 'See you there.',
      html: null,
      links: [],
      attachments: [],
      status: 'sent',
      createdAt: SCANNED,
    };
    routes['/api/dev/mailbox'] = () => json(200, { items: [mail] });
    routes['/api/dev/mailbox/view'] = () => json(200, mail);
    renderAt('/dev/mailbox?id=12');
    await screen.findByRole('article', { name: mail.subject });
    expect(shown()).toContain('Fri 3 Jul 2026, 18:05 UTC');
    expect(shown()).not.toMatch(BROWSER_STYLE);
  });
});
