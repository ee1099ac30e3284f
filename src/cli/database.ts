// How the operator commands open the service's database: see src/wiring/cli.ts (the same
// backend as the service, named on the first line, never created without --init).
export { INIT_FLAG, takeInitFlag, openCliStores, type CliStores, type OpenedCliStores } from '../wiring/cli'
