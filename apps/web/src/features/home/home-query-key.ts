// The home data's query key (siteIndexQuery in ./api.ts), on its own for the page entry: the native shell
// refreshes home on a push (main.tsx) without bringing the home query's module into every page's first
// download.

export const HOME_QUERY_KEY = ['home', 'site-index'] as const;
