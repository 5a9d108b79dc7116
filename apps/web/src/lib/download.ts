import { apiBase } from './api-base';
import { ApiError } from './api-client';
import { getAccessToken } from './session';

/** Offers text as a file download (e.g. a CSV template), without a server round trip. */
export function downloadText(filename: string, text: string, type = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * Downloads a file answer of the API (a CSV export) with the bearer token, under the name the server
 * gives in Content-Disposition (else `fallbackName`). Rejects with an ApiError on a failed answer.
 */
export async function downloadFile(
  path: string,
  query: Record<string, string | number>,
  fallbackName: string,
): Promise<void> {
  const search = new URLSearchParams(Object.entries(query).map(([key, value]) => [key, String(value)]));
  const headers = new Headers({ 'X-Requested-With': 'XMLHttpRequest' });
  const token = getAccessToken();
  if (token) headers.set('Authorization', `Bearer ${token}`);
  const response = await fetch(`${apiBase()}/${path}?${search.toString()}`, {
    headers,
    credentials: 'same-origin',
  });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { message?: string } | null;
    throw new ApiError(response.status, body?.message ?? response.statusText, body);
  }
  const disposition = response.headers.get('content-disposition') ?? '';
  const name = /filename="([^"]+)"/.exec(disposition)?.[1] ?? fallbackName;
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
