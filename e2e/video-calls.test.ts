import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { callOpensAt } from '@parley/domain/video-calls';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, inject, it } from 'vitest';
import {
  type Browser,
  browsersClosedAfterEach,
  DESKTOP,
  LONG_JOURNEY_MS,
  openBrowser,
  PHONE,
  screenshot,
} from './browser';
import { logIn, PASSWORD } from './journeys';
import { smallSchool } from './school-fixture';
import { localAt, middayZone } from './tonight';

const baseUrl = inject('baseUrl');

// Video appointments (issue 41), in Chromium with a fake camera and microphone: the teacher, the parent and
// their child join one appointment and media flows each way between all three (RTCPeerConnection.getStats:
// bytes received rising on every connection); the teacher invites an admin to help; the parent changes
// microphone; another family is refused and a visitor without a session is sent to log in; a later
// appointment cannot be joined yet; the next family, waiting in its own call, is told the teacher is
// finishing the appointment before; the call warns a minute before its end and ends itself then; the
// teacher sees the next family waiting and goes on to them, and media flows again. Slots of two minutes
// keep the wait for a real end short.

/**
 * A small still picture for the fake camera (160×120, five frames a second): the calls still carry video
 * each way, with little to encode, so the journeys that run beside this one are not starved.
 */
function smallCamera(): string {
  const [width, height] = [160, 120];
  const frame = Buffer.concat([
    Buffer.from('FRAME\n'),
    Buffer.alloc(width * height, 120), // mid grey
    Buffer.alloc((width * height) / 2, 128), // no colour
  ]);
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F5:1 Ip A1:1 C420jpeg\n`);
  const path = join(mkdtempSync(join(tmpdir(), 'parley-camera-')), 'camera.y4m');
  writeFileSync(path, Buffer.concat([header, frame, frame, frame, frame, frame]));
  return path;
}

/** How far ahead the first appointment starts: the steps before its end took over two minutes in CI. */
const LEAD_MS = 120_000;

const CAMERA = smallCamera();
afterAll(() => rmSync(dirname(CAMERA), { recursive: true, force: true }));

const MEDIA = [
  '--use-fake-device-for-media-stream',
  `--use-file-for-fake-video-capture=${CAMERA}`,
  '--use-fake-ui-for-media-stream',
  '--autoplay-policy=no-user-gesture-required',
  // Host candidates as addresses, not mDNS names (nothing resolves those here).
  '--disable-features=WebRtcHideLocalIpsWithMdns',
];

/** Every RTCPeerConnection a page makes, kept for the test to read its statistics. */
function keepPeerConnections() {
  const Native = window.RTCPeerConnection;
  const made: RTCPeerConnection[] = [];
  (window as unknown as { peerConnections: RTCPeerConnection[] }).peerConnections = made;
  window.RTCPeerConnection = class extends Native {
    constructor(configuration?: RTCConfiguration) {
      super(configuration);
      made.push(this);
    }
  };
}

/** Bytes received so far on each of the page's open connections (audio and video together). */
function bytesReceived(page: Page): Promise<number[]> {
  return page.evaluate(async () => {
    const made = (window as unknown as { peerConnections: RTCPeerConnection[] }).peerConnections;
    const open = made.filter((pc) => pc.connectionState !== 'closed');
    return Promise.all(
      open.map(async (pc) => {
        let bytes = 0;
        for (const report of (await pc.getStats()).values())
          if (report.type === 'inbound-rtp')
            bytes += (report as { bytesReceived?: number }).bytesReceived ?? 0;
        return bytes;
      }),
    );
  });
}

/** What this page's microphone is, on each of its open connections (the label of the track it sends). */
function sentMicrophones(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const made = (window as unknown as { peerConnections: RTCPeerConnection[] }).peerConnections;
    return made
      .filter((pc) => pc.connectionState !== 'closed')
      .flatMap((pc) => pc.getSenders().filter((sender) => sender.track?.kind === 'audio'))
      .map((sender) => sender.track?.label ?? '');
  });
}

/** Media flows to this page from `peers` others: that many open connections, each receiving more and more. */
async function expectMediaFrom(page: Page, peers: number): Promise<void> {
  await expect
    .poll(async () => (await bytesReceived(page)).filter((bytes) => bytes > 0).length, { timeout: 30_000 })
    .toBe(peers);
  const before = await bytesReceived(page);
  await expect
    .poll(
      async () => {
        const after = await bytesReceived(page);
        return after.length === before.length && after.every((bytes, i) => bytes > (before[i] ?? 0));
      },
      { timeout: 15_000 },
    )
    .toBe(true);
}

async function openWithMedia(viewport: { width: number; height: number }, phone = false): Promise<Browser> {
  const browser = await openBrowser(viewport, { args: MEDIA, ...(phone && { isMobile: true }) });
  await browser.context.addInitScript(keepPeerConnections);
  return browser;
}

describe('a video appointment', () => {
  const browsers = browsersClosedAfterEach('video-calls');

  it('joins teacher, parent and child with media both ways, refuses others, ends itself and moves on', {
    timeout: LONG_JOURNEY_MS,
  }, async () => {
    const school = await smallSchool(baseUrl, 'Video Calls');
    const lees = await school.addFamily('Lee');
    const zone = middayZone();
    const profile = (await (await school.admin.get('site/school')).json()) as { name: string };
    expect(
      (await school.admin.post('site/update-school', { name: profile.name, timezone: zone })).status,
    ).toBe(200);
    const types = (await (await school.admin.get('events/index')).json()) as {
      eventTypes: Array<{ id: number; groupInt: number }>;
    };
    const { id: eventId } = (await (
      await school.admin.post('events/create', {
        name: 'Online consultations',
        eventTypeId: types.eventTypes.find((type) => type.groupInt === 1)?.id,
      })
    ).json()) as { id: number };
    const settings = await school.admin.post(`events/update?id=${eventId}`, {
      status: 1,
      slotMinutes: 2,
      meetingMode: 'video',
    });
    expect(settings.status, await settings.text()).toBe(200);
    // Two-minute slots from this minute, in the school's zone.
    const startsAt = new Date(Math.floor(Date.now() / 60_000) * 60_000);
    const start = localAt(zone, startsAt);
    const end = localAt(zone, new Date(startsAt.getTime() + 50 * 60_000));
    const section = await school.admin.post(`events/create-section?eventId=${eventId}`, {
      date: start.date,
      start: start.time,
      end: end.time,
      teachers: [{ teacherId: school.teacher.id }, { teacherId: school.artTeacher.id }],
    });
    expect(section.status, await section.text()).toBe(200);
    await school.admin.post(`events/add-recipients?eventId=${eventId}&saveme=1`, {
      userIds: [school.parent.id, school.child.id, lees.parent.id, lees.child.id],
    });

    // Everyone signed in first; the appointments are booked after, so the first has time left to talk.
    const teacher = await openWithMedia(DESKTOP);
    const parent = await openWithMedia(PHONE, true);
    const child = await openWithMedia(DESKTOP);
    const other = await openWithMedia(PHONE, true);
    browsers.push(teacher, parent, child, other);
    await Promise.all([
      logIn(teacher.page, baseUrl, school.teacher.email, PASSWORD),
      logIn(parent.page, baseUrl, school.parent.email, PASSWORD),
      logIn(child.page, baseUrl, school.child.email, PASSWORD),
      logIn(other.page, baseUrl, lees.parent.email, PASSWORD),
    ]);

    type Slot = { id: number; teacherId: number; startsAt: string; endsAt: string };
    const grid = (await (await school.admin.get(`events/slots?eventId=${eventId}`)).json()) as {
      items: Array<{ teacherId: number; slots: Slot[] }>;
    };
    const slotsOf = (teacherId: number) =>
      grid.items.find((item) => item.teacherId === teacherId)?.slots ?? [];
    const halls = slotsOf(school.teacher.id);
    // The first appointment starts two minutes on or more (its call is open from five minutes before), so
    // everything this journey does while it runs has four minutes on a loaded machine: it ends two
    // minutes after its start, a real end to wait for.
    const first = halls.findIndex((slot) => Date.parse(slot.startsAt) - Date.now() >= LEAD_MS);
    expect(first).toBeGreaterThanOrEqual(0);
    const book = async (slot: Slot | undefined, family: { parentId: number; studentId: number }) => {
      const answer = await school.admin.post(`events/update-slot-by-admin?id=${eventId}`, {
        slotId: slot?.id,
        ...family,
      });
      const text = await answer.text();
      expect(answer.status, text).toBe(200);
      return (JSON.parse(text) as { created: number[] }).created[0] ?? 0;
    };
    const rowes = { parentId: school.parent.id, studentId: school.child.id };
    const now = await book(halls[first], rowes);
    const next = await book(halls[first + 1], { parentId: lees.parent.id, studentId: lees.child.id });
    const later = await book(slotsOf(school.artTeacher.id)[first + 6], rowes);
    expect(now * next * later).toBeGreaterThan(0);

    // Before a first call: what Parley does and does not see.
    await teacher.page.goto(`${baseUrl}/call/${now}`);
    await expect
      .poll(() =>
        teacher.page.getByText(/never receives, records or stores your picture or your voice/).isVisible(),
      )
      .toBe(true);
    await screenshot(teacher.page, 'video-call-01-privacy');
    await teacher.page.getByRole('button', { name: 'Join the call' }).click();
    await expect.poll(() => teacher.page.getByText('Waiting for Pat Rowe to join…').isVisible()).toBe(true);

    // The parent comes from the booking page's list, where each booking has its call; the child by address.
    const view = (await (await school.admin.get(`events/view?id=${eventId}`)).json()) as {
      event: { bookingPath: string };
    };
    await parent.page.goto(`${baseUrl}${view.event.bookingPath}`);
    await parent.page.getByRole('link', { name: 'Join the video call' }).first().click();
    await expect.poll(() => parent.page.url()).toBe(`${baseUrl}/call/${now}`);
    await child.page.goto(`${baseUrl}/call/${now}`);
    for (const family of [parent, child])
      await family.page.getByRole('button', { name: 'Join the call' }).click();
    // Three people, three connections: each page receives from the two others.
    await Promise.all([teacher, parent, child].map((browser) => expectMediaFrom(browser.page, 2)));
    // Bytes arrive before a picture is decoded: each video has its size once its first frame is drawn.
    const shown = () =>
      teacher.page
        .locator('figure video')
        .evaluateAll((videos) => videos.filter((v) => (v as HTMLVideoElement).videoWidth > 0).length);
    await expect.poll(shown).toBe(3); // the parent, the child, and the teacher's own picture
    await expect
      .poll(() => teacher.page.getByRole('timer').textContent())
      .toMatch(/^(Starts in \d:\d\d|\d:\d\d left)$/);
    await screenshot(teacher.page, 'video-call-02-teacher-in-call');
    await screenshot(parent.page, 'video-call-03-parent-in-call', { fullPage: false });

    // The teacher asks the school's admin to help: the admin is invited (and told by push).
    await teacher.page.getByRole('button', { name: 'Invite an admin to help' }).click();
    await teacher.page.getByRole('menuitem').first().click();
    await expect
      .poll(() => teacher.page.getByText(/ is invited to join this call\.$/).isVisible())
      .toBe(true);

    // The parent changes microphone in the call (Chromium's fake devices: three microphones, one camera):
    // the new one takes the old one's place on both connections, and the teacher still hears the family.
    expect(await sentMicrophones(parent.page)).toEqual([
      'Fake Default Audio Input',
      'Fake Default Audio Input',
    ]);
    await parent.page.getByRole('button', { name: 'Choose microphone' }).click();
    const microphones = parent.page.getByRole('menuitemradio');
    await expect.poll(() => microphones.count()).toBe(3);
    expect(await microphones.first().getAttribute('aria-checked')).toBe('true');
    await screenshot(parent.page, 'video-call-03a-devices', { fullPage: false });
    await parent.page.getByRole('menuitemradio', { name: 'Fake Audio Input 2' }).click();
    await expect
      .poll(() => sentMicrophones(parent.page))
      .toEqual(['Fake Audio Input 2', 'Fake Audio Input 2']);
    await expectMediaFrom(teacher.page, 2);

    // Mute and camera off say so on their buttons.
    await parent.page.getByRole('button', { name: 'Mute' }).click();
    await expect
      .poll(() => parent.page.getByRole('button', { name: 'Unmute' }).getAttribute('aria-pressed'))
      .toBe('true');
    await parent.page.getByRole('button', { name: 'Camera off' }).click();
    await expect.poll(() => parent.page.getByRole('button', { name: 'Camera on' }).isVisible()).toBe(true);

    // Another family is refused this call, and a visitor without a session; a later call is not open yet.
    await other.page.goto(`${baseUrl}/call/${now}`);
    await expect.poll(() => other.page.getByText('Appointment not found.').isVisible()).toBe(true);
    const visitor = await openBrowser(DESKTOP);
    browsers.push(visitor);
    await visitor.page.goto(`${baseUrl}/call/${now}`);
    await expect.poll(() => visitor.page.url()).toContain('/auth/login');
    const early = await openWithMedia(PHONE, true);
    browsers.push(early);
    await logIn(early.page, baseUrl, school.parent.email, PASSWORD);
    await early.page.goto(`${baseUrl}/call/${later}`);
    await expect
      .poll(() =>
        early.page
          .getByText(/^The call opens at \d\d:\d\d, a few minutes before the appointment\.$/)
          .isVisible(),
      )
      .toBe(true);

    // The Lees wait in their own call, which opens five minutes before it: the teacher sees them waiting.
    // Two minutes after the first, it can open up to a minute after the booking; a fast run is there first.
    const nextOpensAt = callOpensAt(new Date(halls[first + 1]?.startsAt ?? 0)).getTime();
    await expect.poll(() => Date.now() >= nextOpensAt, { timeout: 90_000, interval: 1000 }).toBe(true);
    await other.page.goto(`${baseUrl}/call/${next}`);
    await other.page.getByRole('button', { name: 'Join the call' }).click();
    // The timing follows the calls: they are told the teacher is still in the appointment before theirs.
    const busy =
      /^Mina Hall is finishing the appointment before yours, until \d\d:\d\d\. Please wait here\.$/;
    await expect.poll(() => other.page.getByText(busy).isVisible()).toBe(true);
    await screenshot(other.page, 'video-call-04-next-family-waiting', { fullPage: false });
    await expect.poll(() => teacher.page.getByText(/^Next: Sam Lee at \d\d:\d\d$/).isVisible()).toBe(true);
    await expect.poll(() => teacher.page.getByText('waiting', { exact: true }).isVisible()).toBe(true);

    // A minute before the end, a warning; at the end the call ends itself on every side.
    const endsAt = Date.parse(halls[first]?.endsAt ?? '');
    const untilEnd = () => Math.max(endsAt - Date.now(), 0) + 30_000;
    await expect
      .poll(() => teacher.page.getByText('This call ends in 1 minute.').isVisible(), { timeout: untilEnd() })
      .toBe(true);
    // The countdown runs on the server's clock, however long the page waited before the call was joined
    // (to the second, rounded up, between two ticks, with the trip back from the server).
    expect(await teacher.page.getByRole('timer').textContent()).toMatch(/^(0:\d\d|1:0[0-2]) left$/);
    await screenshot(teacher.page, 'video-call-05-warning');
    for (const browser of [teacher, parent, child])
      await expect
        .poll(() => browser.page.getByText('This appointment has ended.').isVisible(), {
          timeout: untilEnd(),
        })
        .toBe(true);
    expect(await bytesReceived(parent.page)).toEqual([]);

    // The teacher goes on to the next family without leaving the page; media flows with the Lees.
    await teacher.page.getByRole('button', { name: 'Go to the next call' }).click();
    await expect.poll(() => teacher.page.url()).toBe(`${baseUrl}/call/${next}`);
    await Promise.all([expectMediaFrom(teacher.page, 1), expectMediaFrom(other.page, 1)]);
    await screenshot(other.page, 'video-call-06-next-family', { fullPage: false });
  });
});
