// Bun re-reads process.env.TZ at runtime; pin it so no test can depend on the host's zone.
process.env.TZ = 'UTC'

// Run-wide (a hook in a preloaded file runs once, after the last file): every temp directory a
// test made through tempDir() is removed, and every PostgreSQL cluster the run started is stopped
// and removed (Bun's test runner emits no process 'exit' event, so exit handlers do not run).
import { afterAll } from 'bun:test'
import { removeTempDirs } from './helpers/app'
import { stopClustersOfThisProcess } from './helpers/postgres-cluster'

afterAll(() => {
  removeTempDirs()
  stopClustersOfThisProcess()
})
