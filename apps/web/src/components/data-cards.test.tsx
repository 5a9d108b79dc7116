import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DataCards } from './data-cards';
import type { ListRequest } from './data-list-types';
import { FIRST_REQUEST } from './data-table';

// The phone's card list of a list the server pages (decision 035): what it shows is the server's page, and
// what the person does (a search, the next page) becomes the next request.

type Row = { id: number; name: string };
const rows: Row[] = Array.from({ length: 10 }, (_, index) => ({
  id: index + 1,
  name: `Person ${index + 1}`,
}));

function cards(props: { rows?: Row[]; request?: ListRequest; total?: number; refreshing?: boolean } = {}) {
  const onRequest = vi.fn<(next: ListRequest) => void>();
  render(
    <DataCards<Row>
      label="People"
      rows={props.rows ?? rows}
      server={{ request: props.request ?? FIRST_REQUEST, onRequest, total: props.total ?? 25 }}
      columns={[]}
      rowKey={(row) => row.id}
      nameOf={(row) => row.name}
      renderCard={(row) => row.name}
      onOpen={() => {}}
      onRefresh={() => {}}
      refreshing={props.refreshing ?? false}
      emptyText="Nobody yet."
    />,
  );
  return onRequest;
}

afterEach(cleanup);

describe('cards of a list the server pages', () => {
  it('shows the page as it came, and asks for the next one and for a search from the first page', () => {
    const onRequest = cards();
    const list = screen.getByRole('list', { name: 'People' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(10);
    expect(screen.getByText('1–10 of 25')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(onRequest).toHaveBeenLastCalledWith({ ...FIRST_REQUEST, page: 1 });
    fireEvent.change(screen.getByLabelText('Search name'), { target: { value: 'moss' } });
    expect(onRequest).toHaveBeenLastCalledWith({ ...FIRST_REQUEST, query: 'moss', page: 0 });
  });

  it('says "no matches" for a search that found nobody, and shows a bar while the next page loads', () => {
    cards({ rows: [], request: { ...FIRST_REQUEST, query: 'zz' }, total: 0 });
    expect(screen.getByText('No matching records found.')).toBeTruthy();
    cleanup();
    cards({ request: { ...FIRST_REQUEST, page: 1 }, refreshing: true });
    expect(screen.getByRole('progressbar', { name: 'Refreshing' })).toBeTruthy();
    expect(screen.getByText('11–20 of 25')).toBeTruthy();
  });
});
