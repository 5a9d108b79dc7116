import { QueryClient } from '@tanstack/react-query';

// One cache for the app. The API client does its own retrying (503 + retry flag), so queries do not.
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
});
