import { NotBuiltYet } from '../../components/not-built-yet';
import { Page } from '../../components/page';

export function FranchisesScreen() {
  return (
    <Page title="Franchises">
      <NotBuiltYet />
    </Page>
  );
}
