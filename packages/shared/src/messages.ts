import type { Role } from './constants';
import { ROLE_LABELS } from './constants';

/** Every user-facing text of the product spec, word for word, plus the texts we add. */
export const MESSAGES = {
  productTitle: 'Book-My-ETaxi',
  signInHeading: (role: Role) => `${ROLE_LABELS[role]} Sign In`,
  signInButton: 'Sign In',
  forgotPasswordLink: 'Forgot Password? Click to reset',
  welcomeHeading: (name: string) => `Welcome ${name} to Book-My-ETaxi`,
  welcomeTagline: 'Book a ride in an electric taxi: clean, quiet and on time, wherever you are going.',
  unexpectedError: 'Unexpected Application Error!',
  notAllowed: 'You do not have access to this page.',
  notFoundPage: 'This page does not exist.',
  help: 'Help',
  contactUs: 'Contact Us',
  logout: 'Logout',

  // Sign-in failures (the spec only logged them; we show them).
  invalidCredentials: 'Incorrect email or password.',
  wrongTab: (role: Role) =>
    `This account cannot sign in as ${ROLE_LABELS[role]}. Choose the tab of your role.`,
  tooManyAttempts: (minutes: number) =>
    `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  accountDisabled: 'This account is disabled. Contact an admin.',
  sessionExpired: 'Your session has ended. Please sign in again.',

  // Password rules.
  passwordTooShort: (min: number) => `Password must be at least ${min} characters.`,
  passwordTooLong: (max: number) => `Password must be at most ${max} characters.`,
  passwordTooCommon: 'This password is too common. Choose a less predictable one.',

  // Account creation (spec 5 and 8).
  fillAllFields: 'Please fill in all fields',
  enterEmailToReset: 'Please enter your email to reset the password',
  emailInUse: 'The email address is already in use by another account.',
  userCreated: 'New user has been created',
  resetEmailSentDealer: 'Password reset email sent. Please check your email inbox.',
  resetEmailErrorDealer: 'An error occurred while sending the password reset email.',
  resetEmailSentAdmin: 'Password reset email sent. Please check your inbox.',
  resetEmailFailedAdmin: (message: string) => `Failed to send password reset email: ${message}`,
  selectEmail: 'Please select an email.',
  enterEmailAndPassword: 'Please enter both email and new password.',

  // Lists.
  noDealers: 'No dealers available.',
  newDealer: (name: string) => `New Dealer: ${name}`,

  // Rates.
  manageRatesTitle: 'Manage Car Rates by State',
  selectState: '--Select a State--',
  selectCarType: '-- Select Car Type --',
  updateRatesFor: (state: string) => `Update Rates for ${state}`,
  updateTypeRates: (type: string) => `Update ${type} Rates`,
  pleaseSelectCarType: 'Please select a car type.',
  ratesUpdated: (type: string) => `${type} rates updated successfully!`,
  errorUpdatingRates: 'Error updating rates.',
  errorFetchingRates: 'Error fetching rates.',
  loadingRates: 'Loading rates...',
  // Rates: our additions (validation, concurrent edits, copy, history).
  unknownState: 'Unknown state: choose one of the 30 supported states.',
  unknownCarTypes: (keys: string[]) =>
    `Unknown car type${keys.length === 1 ? '' : 's'}: ${keys.join(', ')}. The car types are mini, sedan, suv, erickshaw and auto.`,
  noRatesSent: 'Send the rates of at least one car type.',
  ratesConflict:
    'These rates were changed by someone else since you opened them. Reload to see the current values.',
  reloadCurrentRates: 'Reload current rates',
  copyToSameState: 'Choose a different state to copy to.',
  noRatesToCopy: (state: string) => `${state} has no rates to copy.`,
  ratesCopied: (from: string, to: string) => `The rates of ${from} were copied to ${to}.`,

  // Drivers and trips.
  driverList: 'Driver List',
  noInfo: 'No info',
  noInfoDashboard: 'No Info',
  deleteDriver: 'Delete driver',
  noBookingHistory: 'No booking history available.',
  loadingBookingHistory: 'Loading booking history...',
  notRated: 'Not rated',
  searchTrips: 'Search Trips',
  listOfTrips: 'List of Trips',
  mostRecentTrip: 'Most Recent Trip',
  loading: 'Loading...',

  // Driver management (our additions: deleted view, assignment, document upload and review).
  invalidCursor: 'Invalid cursor.',
  deletedDriversAdminOnly: 'Only admins can see deleted drivers.',
  franchiseNotFound: 'Choose an existing, active franchise.',
  stateDiffersFromFranchise: (state: string) =>
    `The state must be the franchise's state (${state}), or left empty to take it.`,
  imageTypeNotAccepted: 'Upload a JPEG or PNG image (Content-Type image/jpeg or image/png).',
  imageTooLarge: (megabytes: number) => `The image is too large: at most ${megabytes} MB.`,
  imageEmpty: 'The image is empty.',
  imageUnreadable: 'The file is not a readable JPEG or PNG image.',
  imageTypeMismatch: (detected: string, declared: string) =>
    `The file is a ${detected} image but was sent as ${declared}.`,
  imageTooManyPixels: (megapixels: number) =>
    `The image has too many pixels: at most ${megapixels} megapixels.`,
  documentHasNoImage: 'Only a document with an image can be reviewed: upload its image first.',

  // Account screens (spec 2).
  cityDealerSignUp: 'City Dealer sign up',
  franchiseSignUp: 'Franchise Sign up',
  signUp: 'Sign up',
  createUser: 'Create User',
  forgotPassword: 'Forgot Password?',
  selectStatePlaceholder: 'Select State',
  selectEmailLabel: 'Select Email:',
  sendResetLink: 'Send Password Reset Link',
  updatePassword: 'Update Password',

  // Accounts, password reset and profile (our additions).
  chooseState: 'Choose a state from the list.',
  dealerOwnStateOnly: (state: string) => `A city dealer creates franchises in its own state only (${state}).`,
  dealerOfOtherState: "Choose an active city dealer of the franchise's state.",
  stateLockedByFranchises: 'The state cannot change while franchises work under this city dealer.',
  stateLockedByDrivers: 'The state cannot change while drivers work for this franchise.',
  nothingToChange: 'Nothing to change.',
  enterName: 'Enter a name.',
  enterDisplayName: 'Enter a display name.',
  resetRequested: 'If an account uses this email address, a password reset link is on its way.',
  tooManyResetRequests: (minutes: number) =>
    `Too many password reset requests. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  resetLinkInvalid: 'This password reset link is invalid, already used or expired. Ask for a new one.',
  resetLinkMissing: 'This page opens from the link in a password reset email. Ask for a new one.',
  passwordsDiffer: 'The two passwords do not match.',
  passwordUpdated: (email: string) => `The password of ${email} has been updated.`,
  noAccountWithEmail: 'No account uses this email address.',

  // Generic API texts.
  validationFailed: 'Some fields are not valid.',
  unauthorized: 'Please sign in to continue.',
  forbidden: 'You are not allowed to do this.',
  notFound: 'Not found.',
  rateLimited: 'Too many requests. Please wait a moment and try again.',
  internal: 'Something went wrong on our side. Please try again.',
  badUrl: 'The address of this request is not valid.',
  uriTooLong: 'The address of this request is too long.',
  headersTooLarge: 'The headers of this request are too large.',
  badRequest: 'This request could not be read.',
  requestTimeout: 'The request took too long to arrive. Please try again.',
  tooManyStreams: 'Too many live views are open for this session. Close some tabs and try again.',
} as const;

/** The trip feedback form's message when no star is chosen. */
export const TRIP_RATING_REQUIRED = 'Please choose a rating from 1 to 5 stars.';
