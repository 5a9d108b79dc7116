import { Navigate, Outlet, useLocation } from 'react-router';
import { useSession } from '../lib/session';
import { guardRoute } from './route-guard';

/** Applies the route guard to every navigation; the layouts and screens render inside. */
export function RootGuard() {
  const location = useLocation();
  const { token, user } = useSession();
  const result = guardRoute({
    pathname: location.pathname,
    search: location.search,
    hash: location.hash,
    loggedIn: token !== null,
    isAdmin: user ? user.isAdmin : null,
  });
  if (result.kind === 'redirect') return <Navigate to={result.to} replace />;
  return <Outlet />;
}
