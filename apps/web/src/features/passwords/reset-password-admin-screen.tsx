import { NotBuiltYet } from '../../components/not-built-yet';
import { Page } from '../../components/page';

export function ResetPasswordAdminScreen() {
  return (
    <Page title="Reset Admin Password">
      <NotBuiltYet />
    </Page>
  );
}
