import type { CarType, DocumentKey, DocumentStatus, Role, State } from './constants';
import { m } from './paraglide/messages.js';

type Text = () => string;

const ROLE: Record<Role, Text> = {
  admin: m.roleAdmin,
  city_dealer: m.roleCityDealer,
  franchise: m.roleFranchise,
};
const CAR_TYPE: Record<CarType, Text> = {
  mini: m.carTypeMini,
  sedan: m.carTypeSedan,
  suv: m.carTypeSuv,
  erickshaw: m.carTypeErickshaw,
  auto: m.carTypeAuto,
};
const DOCUMENT: Record<DocumentKey, Text> = {
  aadharCard: m.documentAadharCard,
  addressProof: m.documentAddressProof,
  driverLicence: m.documentDriverLicence,
  fitnessCertificate: m.documentFitnessCertificate,
  identityDetail: m.documentIdentityDetail,
  panCard: m.documentPanCard,
  pollutionCertificate: m.documentPollutionCertificate,
  rcCertificate: m.documentRcCertificate,
  vehcileAudit: m.documentVehcileAudit,
  vehiclePermit: m.documentVehiclePermit,
};
const DOCUMENT_STATUS: Record<DocumentStatus, Text> = {
  not_submitted: m.documentStatusNotSubmitted,
  submitted: m.documentStatusSubmitted,
  approved: m.documentStatusApproved,
  rejected: m.documentStatusRejected,
};
const STATE: Record<State, Text> = {
  'andhra pradesh': m.stateAndhraPradesh,
  'arunachal pradesh': m.stateArunachalPradesh,
  assam: m.stateAssam,
  bihar: m.stateBihar,
  chandigarh: m.stateChandigarh,
  chhattisgarh: m.stateChhattisgarh,
  delhi: m.stateDelhi,
  goa: m.stateGoa,
  gujarat: m.stateGujarat,
  haryana: m.stateHaryana,
  'himachal pradesh': m.stateHimachalPradesh,
  jharkhand: m.stateJharkhand,
  karnataka: m.stateKarnataka,
  kerala: m.stateKerala,
  'madhya pradesh': m.stateMadhyaPradesh,
  maharashtra: m.stateMaharashtra,
  manipur: m.stateManipur,
  meghalaya: m.stateMeghalaya,
  mizoram: m.stateMizoram,
  nagaland: m.stateNagaland,
  odisha: m.stateOdisha,
  punjab: m.statePunjab,
  rajasthan: m.stateRajasthan,
  sikkim: m.stateSikkim,
  'tamil nadu': m.stateTamilNadu,
  telangana: m.stateTelangana,
  tripura: m.stateTripura,
  'uttar pradesh': m.stateUttarPradesh,
  uttarakhand: m.stateUttarakhand,
  'west bengal': m.stateWestBengal,
};

/** How a role is named on screen, in the current language. */
export const roleLabel = (role: Role): string => ROLE[role]();
/** How a car type is named on screen, in the current language. */
export const carTypeLabel = (type: CarType): string => CAR_TYPE[type]();
/** How a driver document is named on screen, in the current language. */
export const documentLabel = (key: DocumentKey): string => DOCUMENT[key]();
/** How a document's review state is named on screen, in the current language. */
export const documentStatusLabel = (status: DocumentStatus): string => DOCUMENT_STATUS[status]();
/** A state's name in the current language; a value outside the 30 (old data) is shown capitalized. */
export const stateLabel = (state: string): string =>
  state in STATE
    ? STATE[state as State]()
    : state.replace(/\b\p{L}/gu, (letter) => letter.toUpperCase());
