import { NotBuiltYet } from '../../components/not-built-yet';
import { Page } from '../../components/page';

export function UpdatePasswordScreen() {
  return (
    <Page title="Update Password">
      <NotBuiltYet />
    </Page>
  );
}
