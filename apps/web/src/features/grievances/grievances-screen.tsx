import { Center } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { useParams } from 'react-router';
import { m } from '@bmet/shared/paraglide/messages';
import { RequireAccess } from '../../app/guards';
import { GrievanceDesk } from './grievance-desk';
import { Spinner } from '../../components/spinner';

const GrievancePage = lazy(() => import('./grievance-page').then((m) => ({ default: m.GrievancePage })));
const GrievanceSettings = lazy(() =>
  import('./grievance-settings').then((m) => ({ default: m.GrievanceSettings })),
);

const GrievanceReport = lazy(() =>
  import('./grievance-report').then((m) => ({ default: m.GrievanceReport })),
);

/** The addresses of the admins' settings and of the monthly report, under the desk's own. */
const SETTINGS = 'settings';
const REPORT = 'report';

/**
 * `/grievances/:grievanceId?`, one route for the desk, a grievance, the monthly report and (admins)
 * the settings: the
 * sign-in screen's first load carries every route's entry, so the feature adds only one. The desk
 * loads with it; a grievance and the settings load when opened.
 */
export function GrievancesScreen() {
  const { grievanceId } = useParams();
  if (!grievanceId) return <GrievanceDesk />;
  return (
    <Suspense
      fallback={
        <Center py="xl">
          <Spinner label={m.grievanceLoadingOne()} />
        </Center>
      }
    >
      {grievanceId === SETTINGS ? (
        <RequireAccess permission={['holidays', 'create']}>
          <GrievanceSettings />
        </RequireAccess>
      ) : grievanceId === REPORT ? (
        <GrievanceReport />
      ) : (
        // Keyed: another grievance opened from this one starts afresh.
        <GrievancePage key={grievanceId} />
      )}
    </Suspense>
  );
}
