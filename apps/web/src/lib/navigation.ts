// Navigation outside React components (the API client's logout, the logout action). The app registers
// the router's navigate at start; until then a full page load does the job.

type Navigate = (path: string) => void;

let navigateImpl: Navigate = (path) => {
  window.location.assign(path);
};

export function setNavigate(navigate: Navigate): void {
  navigateImpl = navigate;
}

export function navigateTo(path: string): void {
  navigateImpl(path);
}
