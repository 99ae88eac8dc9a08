import { NotBuiltYet } from '../../components/not-built-yet';
import { Page } from '../../components/page';

export function CreateCityDealerScreen() {
  return (
    <Page title="City Dealer sign up">
      <NotBuiltYet />
    </Page>
  );
}
