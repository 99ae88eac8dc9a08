import { Component, lazy, useEffect, type ErrorInfo, type ReactNode } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { FullPageSpinner } from '../components/full-page-spinner';
// In the first load itself: the screen a phone meets first renders without another round trip.
import { SignInScreen } from '../features/auth/sign-in-screen';
import { useSession } from '../lib/session-context';
import { ErrorPage } from './error-page';
import { NotFound, RequireAccess } from './guards';
import { Layout } from './layout';
import { screen, STAFF_ROUTES } from './routes';

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

function CatchAll() {
  const { session } = useSession();
  return session ? <NotFound /> : <Navigate to="/admin" replace />;
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

/** Every route of the spec's table, with the guards of the signed-in ones. */
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
          {STAFF_ROUTES.map(({ path, permission, Component: Screen }) => (
            <Route
              key={path}
              path={path}
              element={
                <RequireAccess permission={permission}>
                  <Screen />
                </RequireAccess>
              }
            />
          ))}
          <Route path="/error-test" element={<CrashTest />} />
          <Route path="*" element={<CatchAll />} />
        </Route>
      </Routes>
    </ErrorBoundary>
  );
}
