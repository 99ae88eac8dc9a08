import { useEffect } from 'react';
import { createBrowserRouter, Navigate } from 'react-router';
import { lazy, Suspense } from 'react';
import { FullPageSpinner } from '../components/full-page-spinner';
import { useSession } from '../lib/session-context';
import { ErrorPage, CrashTest } from './error-page';
import { NotFound, RequireAccess } from './guards';
import { Layout } from './layout';
import { STAFF_ROUTES } from './routes';

const SignInScreen = lazy(() =>
  import('../features/auth/sign-in-screen').then((m) => ({ default: m.SignInScreen })),
);
const ResetPasswordScreen = lazy(() =>
  import('../features/auth/reset-password-screen').then((m) => ({ default: m.ResetPasswordScreen })),
);
const ResetPasswordAdminScreen = lazy(() =>
  import('../features/passwords/reset-password-admin-screen').then((m) => ({
    default: m.ResetPasswordAdminScreen,
  })),
);

/** The spec's '/': straight to the static landing page (the server redirects too). */
function LandingRedirect() {
  useEffect(() => {
    window.location.replace('/landingPage/index.html');
  }, []);
  return <FullPageSpinner />;
}

function CatchAll() {
  const { session } = useSession();
  return session ? <NotFound /> : <Navigate to="/admin" replace />;
}

export const router = createBrowserRouter([
  { path: '/', element: <LandingRedirect />, errorElement: <ErrorPage /> },
  {
    element: <Layout />,
    errorElement: <ErrorPage />,
    children: [
      {
        path: '/admin',
        element: (
          <Suspense fallback={<FullPageSpinner />}>
            <SignInScreen />
          </Suspense>
        ),
      },
      { path: '/reset-password-admin', element: <ResetPasswordAdminScreen /> },
      // The link of a password reset email: public, the token is the proof.
      { path: '/reset-password', element: <ResetPasswordScreen /> },
      ...STAFF_ROUTES.map(({ path, permission, Component }) => ({
        path,
        element: (
          <RequireAccess permission={permission}>
            <Component />
          </RequireAccess>
        ),
      })),
      { path: '/error-test', element: <CrashTest /> },
      { path: '*', element: <CatchAll /> },
    ],
  },
]);
