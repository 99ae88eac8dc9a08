import type { FirebaseJson } from './firebase-server';

/**
 * A booking as the customer app writes it at `trips/{push id}` (firebase-data.md), for `customer`
 * (a key under `customer/`), titled with the customer's name; `changes` replace any field.
 */
export function appBooking(
  customer: string,
  title: string,
  changes: { [key: string]: FirebaseJson } = {},
): { [key: string]: FirebaseJson } {
  return {
    title,
    body: 'Please Pickup me',
    phoneNumber: '9123456789',
    id: customer,
    car: 'sedan',
    date: '2026-11-28 10:15:00.000000',
    price: '250',
    distance: '12',
    'pick-up': { location: 'MG Road', lat: 12.97, long: 77.59 },
    destination: { location: 'Airport', lat: 13.2, long: 77.7 },
    tripStarted: false,
    isFinished: false,
    ...changes,
  };
}
