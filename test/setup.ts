// Bun re-reads process.env.TZ at runtime; pin it so no test can depend on the host's zone.
process.env.TZ = 'UTC'

// Every temp directory a test made through tempDir() is removed when its file is done.
import { afterAll, setDefaultTimeout } from 'bun:test'
import { removeTempDirs } from './helpers/app'

// bunfig.toml's [test] timeout is not applied by this Bun (a CI run timed out at 5 s); set it here.
// Tests start real servers and chains on a shared 2-core machine: 20 s per test, never a speed assert.
setDefaultTimeout(20_000)

afterAll(() => removeTempDirs())
