import { databaseOfThisWorker } from './worker-databases';

// Each jest worker (and every process its tests start) works in its own database; see global-setup.ts.
const url = databaseOfThisWorker();
if (url) process.env.TEST_DB_URL = url;
