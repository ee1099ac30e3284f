// Bun re-reads process.env.TZ at runtime; pin it so no test can depend on the host's zone.
process.env.TZ = 'UTC'

// Every temp directory a test made through tempDir() is removed when its file is done.
import { afterAll } from 'bun:test'
import { removeTempDirs } from './helpers/app'

afterAll(() => removeTempDirs())
