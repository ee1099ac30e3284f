// Bun re-reads process.env.TZ at runtime; pin it so no test can depend on the host's zone.
process.env.TZ = 'UTC'
