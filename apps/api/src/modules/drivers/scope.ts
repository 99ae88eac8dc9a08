import { AppError } from '@bmet/shared/errors';
import { m } from '@bmet/shared/paraglide/messages';
import { can } from '@bmet/shared/permissions';
import type { ScopeCaller } from '../../lib/scope';

/** The deleted drivers are shown to those who may restore them (admins) only: the list's refusal. */
export function refuseDeletedView(caller: ScopeCaller, deleted: boolean | undefined): void {
  if (deleted && !can(caller, ['drivers', 'restore'])) {
    throw new AppError('FORBIDDEN', m.deletedDriversAdminOnly());
  }
}
