import { m } from './paraglide/messages.js';
import { documentProblemLabel } from './labels';
import type { ComplianceProblem } from './schemas/driver';
import type { Fuel, VehicleOwner, VehicleProblem } from './vehicle-rules';

/** How a fuel is named on screen, in the current language. */
export function fuelLabel(fuel: Fuel): string {
  switch (fuel) {
    case 'electric':
      return m.vehicleFuelElectric();
    case 'cng':
      return m.vehicleFuelCng();
    case 'petrol':
      return m.vehicleFuelPetrol();
    case 'diesel':
      return m.vehicleFuelDiesel();
  }
}

/** Whose a vehicle is, on screen. */
export function vehicleOwnerLabel(owner: VehicleOwner): string {
  return owner === 'driver' ? m.vehicleOwnerDriver() : m.vehicleOwnerCompany();
}

/** Why a vehicle is not compliant, on screen, with its state's age limit. */
export function vehicleProblemLabel(problem: VehicleProblem, vehicle: { ageLimitYears: number }): string {
  switch (problem) {
    case 'over_age':
      return m.vehicleProblemOverAge({ years: vehicle.ageLimitYears });
  }
}

/** Every reason a vehicle is not compliant, in words: its age, then its documents. */
export const vehicleReasons = (vehicle: {
  compliance: { problems: VehicleProblem[]; documents: ComplianceProblem[] };
  ageLimitYears: number;
}) => [
  ...vehicle.compliance.problems.map((problem) => vehicleProblemLabel(problem, vehicle)),
  ...vehicle.compliance.documents.map(({ document, problem }) => documentProblemLabel(document, problem)),
];
