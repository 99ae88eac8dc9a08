import type { FastifyInstance } from 'fastify';
import { m } from '@bmet/shared/paraglide/messages';
import { customerListQuerySchema, type Customer } from '@bmet/shared/schemas/customer';
import type { Db } from '../../db/client';
import { registerCsvExport, type CsvColumn } from '../../plugins/csv-export';
import { findCustomers } from './repository';

function customerColumns(): CsvColumn<Customer>[] {
  return [
    { header: m.customersColumnName(), value: (customer) => customer.name },
    { header: m.customersColumnEmail(), value: (customer) => customer.email },
    { header: m.customersColumnPhoneNumber(), value: (customer) => customer.phoneNumber },
    { header: m.exportColumnId(), value: (customer) => customer.id },
  ];
}

/** `GET /api/customers/export.csv`: the customer list (admins only) as a CSV file. */
export function registerCustomerExport(app: FastifyInstance, db: Db): void {
  registerCsvExport(app, {
    url: '/customers/export.csv',
    access: ['customers', 'list'],
    tags: ['customers'],
    summary: 'Customers as a CSV file: every matching row, in name order',
    description:
      'Takes the query of `GET /api/customers` without `limit` and `cursor`, and answers the rows of the list, page after page.',
    query: customerListQuerySchema.omit({ limit: true, cursor: true }),
    fileName: 'customers',
    columns: customerColumns,
    readBatch: async (_request, query, cursor, limit) => {
      const page = await findCustomers(db, { ...query, cursor, limit });
      return { rows: page.customers, nextCursor: page.nextCursor };
    },
  });
}
