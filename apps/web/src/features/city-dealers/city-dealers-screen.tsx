import { NotBuiltYet } from '../../components/not-built-yet';
import { Page } from '../../components/page';

export function CityDealersScreen() {
  return (
    <Page title="City Dealers">
      <NotBuiltYet />
    </Page>
  );
}
