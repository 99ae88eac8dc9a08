import type { CarType, DocumentKey, DocumentStatus, State, TripStatus } from './constants';
import { m } from './paraglide/messages.js';

// Switches rather than lookup tables: a screen that names only car types carries only their texts.
// Role names live in role-label.ts: the first screen names roles, and a module travels whole into
// the first chunk that imports it.

/** How a car type is named on screen, in the current language. */
export function carTypeLabel(type: CarType): string {
  switch (type) {
    case 'mini':
      return m.carTypeMini();
    case 'sedan':
      return m.carTypeSedan();
    case 'suv':
      return m.carTypeSuv();
    case 'erickshaw':
      return m.carTypeErickshaw();
    case 'auto':
      return m.carTypeAuto();
  }
}

/** How a trip's status is named on screen, in the current language. */
export function tripStatusLabel(status: TripStatus): string {
  switch (status) {
    case 'requested':
      return m.tripsStatusRequested();
    case 'assigned':
      return m.tripsStatusAssigned();
    case 'started':
      return m.tripsStatusStarted();
    case 'completed':
      return m.tripsStatusCompleted();
    case 'cancelled':
      return m.tripsStatusCancelled();
  }
}

/** How a driver document is named on screen, in the current language. */
export function documentLabel(key: DocumentKey): string {
  switch (key) {
    case 'aadharCard':
      return m.documentAadharCard();
    case 'addressProof':
      return m.documentAddressProof();
    case 'driverLicence':
      return m.documentDriverLicence();
    case 'fitnessCertificate':
      return m.documentFitnessCertificate();
    case 'identityDetail':
      return m.documentIdentityDetail();
    case 'panCard':
      return m.documentPanCard();
    case 'pollutionCertificate':
      return m.documentPollutionCertificate();
    case 'rcCertificate':
      return m.documentRcCertificate();
    case 'vehcileAudit':
      return m.documentVehcileAudit();
    case 'vehiclePermit':
      return m.documentVehiclePermit();
    case 'vehicleInsurance':
      return m.documentVehicleInsurance();
  }
}

/** How a document's review state is named on screen, in the current language. */
export function documentStatusLabel(status: DocumentStatus): string {
  switch (status) {
    case 'not_submitted':
      return m.documentStatusNotSubmitted();
    case 'submitted':
      return m.documentStatusSubmitted();
    case 'approved':
      return m.documentStatusApproved();
    case 'rejected':
      return m.documentStatusRejected();
  }
}

/** A state's name in the current language; a value outside the 30 (old data) is shown capitalized. */
export function stateLabel(state: State | string): string {
  switch (state as State) {
    case 'andhra pradesh':
      return m.stateAndhraPradesh();
    case 'arunachal pradesh':
      return m.stateArunachalPradesh();
    case 'assam':
      return m.stateAssam();
    case 'bihar':
      return m.stateBihar();
    case 'chandigarh':
      return m.stateChandigarh();
    case 'chhattisgarh':
      return m.stateChhattisgarh();
    case 'delhi':
      return m.stateDelhi();
    case 'goa':
      return m.stateGoa();
    case 'gujarat':
      return m.stateGujarat();
    case 'haryana':
      return m.stateHaryana();
    case 'himachal pradesh':
      return m.stateHimachalPradesh();
    case 'jharkhand':
      return m.stateJharkhand();
    case 'karnataka':
      return m.stateKarnataka();
    case 'kerala':
      return m.stateKerala();
    case 'madhya pradesh':
      return m.stateMadhyaPradesh();
    case 'maharashtra':
      return m.stateMaharashtra();
    case 'manipur':
      return m.stateManipur();
    case 'meghalaya':
      return m.stateMeghalaya();
    case 'mizoram':
      return m.stateMizoram();
    case 'nagaland':
      return m.stateNagaland();
    case 'odisha':
      return m.stateOdisha();
    case 'punjab':
      return m.statePunjab();
    case 'rajasthan':
      return m.stateRajasthan();
    case 'sikkim':
      return m.stateSikkim();
    case 'tamil nadu':
      return m.stateTamilNadu();
    case 'telangana':
      return m.stateTelangana();
    case 'tripura':
      return m.stateTripura();
    case 'uttar pradesh':
      return m.stateUttarPradesh();
    case 'uttarakhand':
      return m.stateUttarakhand();
    case 'west bengal':
      return m.stateWestBengal();
    default:
      return state.replace(/\b\p{L}/gu, (letter) => letter.toUpperCase());
  }
}

/** Why a document keeps a driver or a vehicle from being compliant: "RC Certificate missing". */
export function documentProblemLabel(
  document: DocumentKey,
  problem: 'missing' | 'rejected' | 'awaiting_review' | 'expired',
): string {
  const name = documentLabel(document);
  switch (problem) {
    case 'missing':
      return m.complianceProblemMissing({ document: name });
    case 'rejected':
      return m.complianceProblemRejected({ document: name });
    case 'awaiting_review':
      return m.complianceProblemAwaitingReview({ document: name });
    case 'expired':
      return m.complianceProblemExpired({ document: name });
  }
}
