import { EVENT_TEXT, type EventDetail, type EventTypeItem, type SectionDetail } from '@parley/domain/events';
import { VALIDATION } from '@parley/domain/messages';
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { type ReactNode, useState } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SnackbarProvider } from '../../components/snackbar';
import { queryClient } from '../../lib/query-client';
import { EVENTS_TEXT } from '../../lib/ui-text';
import { json, type RecordedRequest, stubFetch } from '../../test-support/screen-fixtures';
import { DisabledNotice, disabledNoticeFor } from './components/event-details-card';
import { defaultEventTypeId, EventFormDialog } from './components/event-form-dialog';
import { SectionDialog } from './components/section-dialog';
import { SectionsCard } from './components/sections-card';
import { eventDetail, slot, slotsAnswer } from './event-fixtures';
import { eventFormSchema } from './event-form';

const TYPES: EventTypeItem[] = [
  { id: 3, name: 'Ticketed event', groupInt: 2 },
  { id: 1, name: 'Parent teacher', groupInt: 1 },
];

const client = () => new QueryClient({ defaultOptions: { mutations: { retry: false } } });
const providers = (children: ReactNode, queries = client()) => (
  <QueryClientProvider client={queries}>
    <MemoryRouter>{children}</MemoryRouter>
  </QueryClientProvider>
);
const wrap = (children: ReactNode) => render(providers(children));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('add event dialog (spec §2, §4, §5)', () => {
  it('is titled "New event", presets "Parent teacher" and keeps Create disabled until valid', async () => {
    wrap(<EventFormDialog open onClose={() => {}} eventTypes={TYPES} />);
    expect(screen.getByRole('dialog', { name: 'New event' })).toBeTruthy();
    expect(screen.getByRole('combobox', { name: /Event type/ }).textContent).toBe('Parent teacher');
    const create = screen.getByRole('button', { name: 'Create' }) as HTMLButtonElement;
    expect(create.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText(/Event name/), { target: { value: 'Spring evening' } });
    await waitFor(() => expect(create.disabled).toBe(false));
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeTruthy();
  });

  it('shows "Name is required" once the name is left empty, and the 60-character rule', async () => {
    wrap(<EventFormDialog open onClose={() => {}} eventTypes={TYPES} />);
    const name = screen.getByLabelText(/Event name/);
    fireEvent.focus(name);
    fireEvent.blur(name);
    expect(await screen.findByText('Name is required')).toBeTruthy();
    fireEvent.change(name, { target: { value: 'x'.repeat(61) } });
    expect(await screen.findByText('Name must be less than 60 characters')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Create' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(name, { target: { value: 'x'.repeat(60) } });
    await waitFor(() => expect(screen.queryByText('Name must be less than 60 characters')).toBeNull());
  });

  it('keeps a name typed before the event types arrive, and then presets the type', async () => {
    const view = wrap(<EventFormDialog open onClose={() => {}} eventTypes={[]} />);
    const name = screen.getByLabelText(/Event name/) as HTMLInputElement;
    fireEvent.change(name, { target: { value: 'Spring concert' } });
    view.rerender(providers(<EventFormDialog open onClose={() => {}} eventTypes={TYPES} />));
    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: /Event type/ }).textContent).toBe('Parent teacher'),
    );
    expect((screen.getByLabelText(/Event name/) as HTMLInputElement).value).toBe('Spring concert');
  });

  it('says "Edit event" and "Save" when editing', () => {
    wrap(
      <EventFormDialog
        open
        onClose={() => {}}
        eventTypes={TYPES}
        editing={{ id: 9, name: 'Concert', eventTypeId: 3 }}
      />,
    );
    expect(screen.getByRole('dialog', { name: 'Edit event' })).toBeTruthy();
    expect((screen.getByLabelText(/Event name/) as HTMLInputElement).value).toBe('Concert');
    expect(screen.getByRole('button', { name: 'Save' })).toBeTruthy();
  });

  it('requires an event type ("Event type is required") when none is chosen', () => {
    expect(defaultEventTypeId([])).toBe('');
    const result = eventFormSchema.safeParse({ name: 'Evening', eventTypeId: '' });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([VALIDATION.eventTypeRequired]);
    expect(VALIDATION.eventTypeRequired).toBe('Event type is required');
    expect(defaultEventTypeId(TYPES)).toBe('1');
  });
});

describe('disabled event notice (spec §4)', () => {
  const text = 'This event is currently disabled. Review settings and enable to allow bookings.';

  it('shows for any status other than 1', () => {
    expect(EVENT_TEXT.disabledNotice).toBe(text);
    expect(disabledNoticeFor({ status: 0 })).toBe(text);
    expect(disabledNoticeFor({ status: 2 })).toBe(text);
    render(<DisabledNotice event={{ status: 0 }} />);
    expect(screen.getByText(text)).toBeTruthy();
  });

  it('is absent when the event is enabled', () => {
    expect(disabledNoticeFor({ status: 1 })).toBeNull();
    render(<DisabledNotice event={{ status: 1 }} />);
    expect(screen.queryByText(text)).toBeNull();
  });
});

/** The section dialog behind a button, as the sections card has it. */
function SectionDialogOpener({ event = eventDetail() }: { event?: EventDetail }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Add section
      </button>
      <SectionDialog event={event} section={null} open={open} onClose={() => setOpen(false)} />
    </>
  );
}

/** Waits for an element without act(), which would run the effects a browser runs in a later task. */
async function appeared<T>(find: () => T | null): Promise<T> {
  for (let tries = 0; tries < 200; tries++) {
    const found = find();
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  throw new Error('never appeared');
}

describe('section dialog (spec §4)', () => {
  it('keeps a date typed the moment it opens: its values are set in the commit that opens it, not a task later', async () => {
    stubFetch(
      (path) => (path === '/api/users/teachers' ? () => json(200, { items: [] }) : undefined),
      () => [],
    );
    wrap(<SectionDialogOpener />);
    // A browser's click and typing, outside act().
    screen.getByRole('button', { name: 'Add section' }).click();
    const date = await appeared(() => document.querySelector<HTMLInputElement>('input[type="date"]'));
    date.value = '2026-12-23';
    date.dispatchEvent(new Event('input', { bubbles: true }));
    // The effects of the render that opened it, and of the renders they cause, have all run by now.
    for (let task = 0; task < 20; task++) await new Promise((resolve) => setTimeout(resolve, 0));
    expect(date.isConnected).toBe(true);
    expect(date.value).toBe('2026-12-23');
  });

  it('shows a time typed without its colon as the 24-hour clock shows it, once the field is left', async () => {
    const requests: RecordedRequest[] = [];
    stubFetch(
      (path) => (path === '/api/users/teachers' ? () => json(200, { items: [] }) : undefined),
      () => requests,
    );
    wrap(<SectionDialog event={eventDetail()} section={null} open onClose={() => {}} />);
    const start = (await screen.findByRole('textbox', { name: /^Start/ })) as HTMLInputElement;
    fireEvent.change(start, { target: { value: '1630' } });
    expect(start.value).toBe('1630');
    fireEvent.blur(start);
    await waitFor(() => expect(start.value).toBe('16:30'));
    // Not a time: left as typed, for the person to see and mend.
    fireEvent.change(start, { target: { value: '4pm' } });
    fireEvent.blur(start);
    await waitFor(() => expect(start.value).toBe('4pm'));
  });
});

describe('section dialog: the confirmation comes as it closes', () => {
  it('says "Section added." once the page has the new grid and the dialog is gone, not while the refresh runs', async () => {
    stubFetch(
      (path) =>
        path === '/api/events/create-section'
          ? () =>
              json(200, { id: 9, message: EVENT_TEXT.sectionCreated, slotCount: 18, cancelledBookings: 0 })
          : undefined,
      () => [],
    );
    // The event's page, on the app's own client, whose refresh after the save waits until let go.
    let fetches = 0;
    let letGo = () => {};
    const refreshed = new Promise<void>((resolve) => {
      letGo = resolve;
    });
    function EventPage() {
      useQuery({
        queryKey: ['events', 'view', 5],
        queryFn: async () => {
          fetches += 1;
          if (fetches > 1) await refreshed;
          return fetches;
        },
      });
      return <SectionDialogOpener event={eventDetail({ eventTypeGroupInt: 4 })} />;
    }
    render(
      <QueryClientProvider client={queryClient}>
        <SnackbarProvider>
          <EventPage />
        </SnackbarProvider>
      </QueryClientProvider>,
    );
    await waitFor(() => expect(fetches).toBe(1));
    fireEvent.click(screen.getByRole('button', { name: 'Add section' }));
    const dialog = await screen.findByRole('dialog', { name: EVENTS_TEXT.newSection });
    fireEvent.change(within(dialog).getByLabelText(/^Date/), { target: { value: '2031-03-04' } });
    const save = within(dialog).getByRole('button', { name: EVENTS_TEXT.save }) as HTMLButtonElement;
    await waitFor(() => expect(save.disabled).toBe(false));
    fireEvent.click(save);
    await waitFor(() => expect(fetches).toBe(2));
    // Saved, the page refreshing: still the dialog, and no message yet to time out behind it.
    expect(screen.queryByText(EVENT_TEXT.sectionCreated)).toBeNull();
    expect(screen.getByRole('dialog', { name: EVENTS_TEXT.newSection })).toBeTruthy();
    letGo();
    expect(await screen.findByText(EVENT_TEXT.sectionCreated)).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: EVENTS_TEXT.newSection })).toBeNull());
    queryClient.clear();
  });
});

describe('section dialog: teachers found by the server (decision 035)', () => {
  const person = (id: number, name: string) => ({ id, name, email: `${id}@hill.test` });
  const teachersAnswer = (url: URL) => {
    const q = url.searchParams.get('q') ?? '';
    const all = [person(1, 'Ann Able'), person(2, 'Bea Best'), person(3, 'Cy Anders')];
    const items = all.filter((teacher) => teacher.name.toLowerCase().includes(q.toLowerCase()));
    return json(200, { items, total: items.length, page: 1, pageSize: 25 });
  };

  it('asks for the teachers whose name holds what is typed, and adds the one chosen', async () => {
    const requests: RecordedRequest[] = [];
    stubFetch(
      (path) => (path === '/api/users/teachers' ? teachersAnswer : undefined),
      () => requests,
    );
    wrap(<SectionDialog event={eventDetail()} section={null} open onClose={() => {}} />);
    const picker = await screen.findByRole('combobox', { name: EVENTS_TEXT.teachers });
    picker.focus(); // as a person typing: the picker keeps the text of a focused field
    fireEvent.change(picker, { target: { value: 'and' } });
    await waitFor(() =>
      expect(requests.map((request) => request.path)).toContain('/api/users/teachers?q=and&pageSize=25'),
    );
    fireEvent.click(await screen.findByRole('option', { name: 'Cy Anders' }));
    expect(screen.queryByRole('option', { name: 'Ann Able' })).toBeNull();
    expect(await screen.findByText(`${EVENTS_TEXT.teachersHelp} (1)`)).toBeTruthy();
  });

  it('says so when the school has no teachers at all', async () => {
    stubFetch(
      (path) =>
        path === '/api/users/teachers'
          ? () => json(200, { items: [], total: 0, page: 1, pageSize: 25 })
          : undefined,
      () => [],
    );
    wrap(<SectionDialog event={eventDetail()} section={null} open onClose={() => {}} />);
    expect(await screen.findByText(EVENTS_TEXT.noTeachers)).toBeTruthy();
  });
});

describe('sections card: a section without slots says what it lacks (issue 36)', () => {
  const bare = {
    ...eventDetail().sections[0],
    id: 2,
    teachers: [],
    slotCount: 0,
    bookedCount: 0,
  } as ReturnType<typeof eventDetail>['sections'][number];

  it('names the missing teachers of a parent-teacher section (the sample evening)', () => {
    wrap(<SectionsCard event={eventDetail({ sections: [bare] })} />);
    expect(
      screen.getByText('No teachers in this section yet: edit it to choose the teachers taking part.'),
    ).toBeTruthy();
    expect(screen.queryByText(/add a section/)).toBeNull();
  });

  it('points at the times of a section of another kind', () => {
    wrap(<SectionsCard event={eventDetail({ eventTypeGroupInt: 4, sections: [bare] })} />);
    expect(screen.getByText('No slots in this section: check its times and the slot length.')).toBeTruthy();
  });
});

describe('sections card: the slot grid a few teachers at a time (decision 035)', () => {
  const names = ['Ann', 'Bea', 'Cy', 'Dan', 'Eve', 'Fin', 'Gil', 'Hal', 'Ida', 'Jay'];
  const teachers = names.map((name, index) => ({
    teacherId: 100 + index,
    name: `${name} Teach`,
    location: null,
    unavailable: [],
    freeSlots: 1,
  }));
  const columns = teachers.map((teacher) => ({
    sectionId: 1,
    teacherId: teacher.teacherId,
    teacherName: teacher.name,
    location: null,
    slots: [slot(teacher.teacherId * 10, '16:00', '16:10')],
  }));

  it('asks for the columns of the teachers shown, pages through them and finds a teacher by name', async () => {
    const requests: RecordedRequest[] = [];
    stubFetch(
      (path) => (path === '/api/events/slots' ? (url) => json(200, slotsAnswer(columns, url)) : undefined),
      () => requests,
    );
    const section = { ...eventDetail().sections[0], teachers, slotCount: 10 } as SectionDetail;
    wrap(<SectionsCard event={eventDetail({ sections: [section] })} />);
    expect(await screen.findByText('1–8 of 10')).toBeTruthy();
    const grid = await screen.findByRole('table', { name: /^Slots: / });
    expect(await within(grid).findByText('Ann Teach')).toBeTruthy();
    expect(within(grid).queryByText('Ida Teach')).toBeNull();
    expect(requests.map((request) => request.path)).toContain(
      `/api/events/slots?eventId=5&sectionId=1&teacherIds=${teachers
        .slice(0, 8)
        .map((teacher) => teacher.teacherId)
        .join('%2C')}`,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await within(grid).findByText('Ida Teach')).toBeTruthy();
    expect(within(grid).queryByText('Ann Teach')).toBeNull();
    expect(screen.getByText('9–10 of 10')).toBeTruthy();
    fireEvent.change(screen.getByRole('searchbox', { name: 'Find a teacher' }), { target: { value: 'eve' } });
    await waitFor(() => expect(within(grid).getByText('Eve Teach')).toBeTruthy());
    expect(within(grid).queryByText('Ida Teach')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Next page' })).toBeNull();
    fireEvent.change(screen.getByRole('searchbox', { name: 'Find a teacher' }), { target: { value: 'zed' } });
    expect(await screen.findByText('No matching records found.')).toBeTruthy();
  });
});
