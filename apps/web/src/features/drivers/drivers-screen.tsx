import { NotBuiltYet } from '../../components/not-built-yet';
import { Page } from '../../components/page';

export function DriversScreen() {
  return (
    <Page title="Driver List">
      <NotBuiltYet />
    </Page>
  );
}
