import { NotBuiltYet } from '../../components/not-built-yet';
import { Page } from '../../components/page';

export function CustomersScreen() {
  return (
    <Page title="Customers">
      <NotBuiltYet />
    </Page>
  );
}
