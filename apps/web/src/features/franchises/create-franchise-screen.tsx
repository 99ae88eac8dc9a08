import { NotBuiltYet } from '../../components/not-built-yet';
import { Page } from '../../components/page';

export function CreateFranchiseScreen() {
  return (
    <Page title="Franchise Sign up">
      <NotBuiltYet />
    </Page>
  );
}
