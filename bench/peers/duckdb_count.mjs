// Runs the SQL printed by `dpq-peers sql` in an in-memory DuckDB and prints
// one line: "<count> <load seconds> <query seconds>". Timing starts at the
// database's creation, so Node.js start-up and the module load are not
// counted (docs/performance.md "Conflict detection against DuckDB").
// run.sh copies this file next to the node_modules it installs, outside the
// source tree.
import { readFileSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';

const [sqlPath] = process.argv.slice(2);
const text = readFileSync(sqlPath, 'utf8');
const parts = text.split(/^-- query$/m);
if (parts.length !== 2) {
  console.error(`${sqlPath}: expected one "-- query" line`);
  process.exit(2);
}
const [loadSql, querySql] = parts;

const start = performance.now();
const instance = await DuckDBInstance.create(':memory:');
const connection = await instance.connect();
await connection.run(loadSql);
const loaded = performance.now();
const reader = await connection.runAndReadAll(querySql);
const count = reader.getRows()[0][0];
const done = performance.now();
console.log(`${count} ${((loaded - start) / 1000).toFixed(3)} ` +
            `${((done - loaded) / 1000).toFixed(3)}`);
