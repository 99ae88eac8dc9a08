import { Route, Routes } from 'react-router';
import { NotFound, RequireAccess } from './guards';
import { STAFF_ROUTES } from './routes';

/**
 * The signed-in routes, each behind its permission; any other address is not found. A chunk of its
 * own (see `load-staff-routes.ts`): the table, its guards and every screen's list of files to
 * preload stay out of the sign-in screen's first load.
 */
export function StaffRoutes() {
  return (
    <Routes>
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
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}
