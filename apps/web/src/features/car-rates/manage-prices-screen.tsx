import { NotBuiltYet } from '../../components/not-built-yet';
import { Page } from '../../components/page';

export function ManagePricesScreen() {
  return (
    <Page title="Manage Car Rates by State">
      <NotBuiltYet />
    </Page>
  );
}
