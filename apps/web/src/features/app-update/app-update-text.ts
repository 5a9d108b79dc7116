// The spec has no text for these (§8 has no offline entry), so they are ours.
export const APP_UPDATE_TEXT = {
  ready: 'A new version of Parley is ready.',
  reload: 'Reload',
  offline: 'You are offline',
} as const;
