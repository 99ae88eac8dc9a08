import { Component, lazy, useEffect, type ErrorInfo, type ReactNode } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { FullPageSpinner } from '../components/full-page-spinner';
// In the first load itself: the screen a phone meets first renders without another round trip.
import { SignInScreen } from '../features/auth/sign-in-screen';
import { useSession } from '../lib/session-context';
import { ErrorPage } from './error-page';
import { Layout } from './layout';
import { screen } from './lazy-screen';
import { loadStaffRoutes } from './load-staff-routes';

const StaffRoutes = lazy(() => loadStaffRoutes().then((module) => ({ default: module.StaffRoutes })));
const CrashTest = lazy(() => import('./crash-test').then((module) => ({ default: module.CrashTest })));
const ResetPasswordScreen = screen(
  () => import('../features/auth/reset-password-screen'),
  'ResetPasswordScreen',
);
const ResetPasswordAdminScreen = screen(
  () => import('../features/passwords/reset-password-admin-screen'),
  'ResetPasswordAdminScreen',
);

/** The spec's '/': straight to the static landing page (the server redirects too). */
function LandingRedirect() {
  useEffect(() => {
    window.location.replace('/landingPage/index.html');
  }, []);
  return <FullPageSpinner />;
}

/** Every other address: the signed-in routes, or the sign-in screen for a visitor without a session. */
function SignedIn() {
  const { session } = useSession();
  const location = useLocation();
  return session ? <StaffRoutes /> : <Navigate to="/admin" replace state={{ from: location.pathname }} />;
}

type BoundaryProps = { children: ReactNode; resetKey: string };

/**
 * The router's error page for whatever a screen throws while rendering. Declarative routes have
 * no errorElement: the data router they would need is a third of the first load's JavaScript.
 * A new address clears the error, as the data router's error page does.
 */
class ErrorBoundary extends Component<BoundaryProps, { error: unknown; key: string }> {
  override state = { error: null as unknown, key: this.props.resetKey };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: { error: unknown; key: string }) {
    return props.resetKey === state.key ? null : { error: null, key: props.resetKey };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error(error, info.componentStack);
  }

  override render() {
    return this.state.error ? <ErrorPage error={this.state.error} /> : this.props.children;
  }
}

/** Every route of the spec's table; the signed-in ones load after a sign-in (load-staff-routes.ts). */
export function AppRoutes() {
  const location = useLocation();
  return (
    <ErrorBoundary resetKey={location.pathname}>
      <Routes>
        <Route path="/" element={<LandingRedirect />} />
        <Route element={<Layout />}>
          <Route path="/admin" element={<SignInScreen />} />
          <Route path="/reset-password-admin" element={<ResetPasswordAdminScreen />} />
          {/* The link of a password reset email: public, the token is the proof. */}
          <Route path="/reset-password" element={<ResetPasswordScreen />} />
          <Route path="/error-test" element={<CrashTest />} />
          {/* The spec's signed-in routes, with their guards (staff-routes.tsx). */}
          <Route path="*" element={<SignedIn />} />
        </Route>
      </Routes>
    </ErrorBoundary>
  );
}
