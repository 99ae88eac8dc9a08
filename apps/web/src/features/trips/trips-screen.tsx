import { NotBuiltYet } from '../../components/not-built-yet';
import { Page } from '../../components/page';

export function TripsScreen() {
  return (
    <Page title="List of Trips">
      <NotBuiltYet />
    </Page>
  );
}
