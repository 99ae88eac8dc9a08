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

  // Generic API texts.
  validationFailed: 'Some fields are not valid.',
  unauthorized: 'Please sign in to continue.',
  forbidden: 'You are not allowed to do this.',
  notFound: 'Not found.',
  rateLimited: 'Too many requests. Please wait a moment and try again.',
  internal: 'Something went wrong on our side. Please try again.',
} as const;
