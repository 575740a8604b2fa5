import 'reflect-metadata';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from './src/database/data-source-options';

// The migration CLI's DataSource: the same entities and migrations as the daemon.
// It needs a running server: DATABASE_URL=postgres://... npm run migration:run
const url = process.env.DATABASE_URL;
if (!url) {
  throw new Error(
    'DATABASE_URL is not set. The migration CLI needs a server, e.g. DATABASE_URL=postgres://postgres@127.0.0.1:5432/billing npm run migration:run. ' +
      '(The daemon applies migrations by itself at start, including on the embedded database.)',
  );
}

// The CLI has no Nest modules to collect entities from, so it finds them by their file names.
export default new DataSource(buildDataSourceOptions(url, { entities: [join(__dirname, 'src', '**', '*.entity.ts')] }));
