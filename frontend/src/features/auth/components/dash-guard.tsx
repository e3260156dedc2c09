import { Navigate, Outlet, useLocation } from 'react-router';
import { paths } from '@/app/paths';
import { PageLoading } from '@/components/page-loading';
import { useSession } from '@/lib/session/session-provider';

/**
 * The dashboard area (spec §2). The route's loader lets only a signed-in visitor in; this
 * keeps watching, so a session that ends while here (renewal refused, sign-out in another tab)
 * goes to Login with the way back.
 */
export function DashGuard() {
  const { status } = useSession();
  const location = useLocation();
  if (status === 'anonymous') {
    return <Navigate replace to={paths.login({ redirect: location.pathname + location.search })} />;
  }
  if (status === 'unknown') return <PageLoading />;
  return <Outlet />;
}
