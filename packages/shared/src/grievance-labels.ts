import { m } from './paraglide/messages.js';
import type {
  ComplainantKind,
  GrievanceCategory,
  GrievanceClock,
  GrievancePriority,
  GrievanceStatus,
} from './grievance-rules';

/** What a grievance is about, on screen, in the current language. */
export function grievanceCategoryLabel(category: GrievanceCategory): string {
  switch (category) {
    case 'fare':
      return m.grievanceCategoryFare();
    case 'behaviour':
      return m.grievanceCategoryBehaviour();
    case 'safety':
      return m.grievanceCategorySafety();
    case 'vehicle':
      return m.grievanceCategoryVehicle();
    case 'lost_item':
      return m.grievanceCategoryLostItem();
    case 'payment':
      return m.grievanceCategoryPayment();
    case 'app':
      return m.grievanceCategoryApp();
    case 'other':
      return m.grievanceCategoryOther();
  }
}

export function grievancePriorityLabel(priority: GrievancePriority): string {
  switch (priority) {
    case 'low':
      return m.grievancePriorityLow();
    case 'normal':
      return m.grievancePriorityNormal();
    case 'high':
      return m.grievancePriorityHigh();
    case 'urgent':
      return m.grievancePriorityUrgent();
  }
}

export function grievanceStatusLabel(status: GrievanceStatus): string {
  switch (status) {
    case 'open':
      return m.grievanceStatusOpen();
    case 'in_progress':
      return m.grievanceStatusInProgress();
    case 'waiting':
      return m.grievanceStatusWaiting();
    case 'resolved':
      return m.grievanceStatusResolved();
    case 'closed':
      return m.grievanceStatusClosed();
    case 'reopened':
      return m.grievanceStatusReopened();
  }
}

export function complainantKindLabel(kind: ComplainantKind): string {
  switch (kind) {
    case 'customer':
      return m.grievanceComplainantCustomer();
    case 'driver':
      return m.grievanceComplainantDriver();
    case 'other':
      return m.grievanceComplainantOther();
  }
}

export function grievanceClockLabel(clock: GrievanceClock): string {
  switch (clock) {
    case 'overdue':
      return m.grievanceClockOverdue();
    case 'due_soon':
      return m.grievanceClockDueSoon();
    case 'on_time':
      return m.grievanceClockOnTime();
  }
}
