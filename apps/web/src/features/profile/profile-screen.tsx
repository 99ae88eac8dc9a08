import { NotBuiltYet } from '../../components/not-built-yet';
import { Page } from '../../components/page';

export function ProfileScreen() {
  return (
    <Page title="Profile">
      <NotBuiltYet />
    </Page>
  );
}
