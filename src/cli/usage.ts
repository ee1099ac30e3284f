// What `openbell --help` prints.
import { KEYS_SYNOPSIS } from './keys'

export const USAGE = `usage: openbell [command]

  openbell [serve]                 start the service (configuration: environment variables, see README)
  openbell ${KEYS_SYNOPSIS}
  openbell overrides set|clear|list …                    the operator circuit breaker
  openbell mail status             e-mail outbox: queued, sent and failed counts (no keys)
  openbell backup <new file>       consistent copy of the SQLite database (mode 0600); on PostgreSQL it says how to use pg_dump
  openbell db copy [--to-file <file> | --to postgres://…]
                                   copy the stopped SQLite database into an empty PostgreSQL database (docs/scale-out.md):
                                   the target is DATABASE_URL, or the URL (or DATABASE_URL= line) of <file>, or --to
  openbell calendars check [dir]   validate schedule files offline
  openbell calendars basis [dir]   print the basis-by-year table of docs/calendars.md
  openbell calendars phases [dir]  print the trading-phase table of docs/calendars.md
  openbell healthcheck [--ready] [--wait SECONDS]
                                   exit 0 when the local service answers /v5/health (liveness); --ready: /v5/ready
                                   (it can answer live requests); --wait: ask again until 200 or the time is up
  openbell calendars publish --out DIR   write the signed calendar manifest and files for static hosting
  openbell calendars follow --accept-upstream MIC…   let the upstream replace locally edited files
  openbell calendars status        the calendar source this instance follows: last check, serial, overrides, refusals
  openbell log verify --url <base> [--state <file>] [--receipt <id>]   follow a service's receipt log: rebuild
                                   its tree from the entries, check root, tiles, consistency and a receipt;
                                   every request timed and capped (openbell log verify for the options)
  openbell log verify --proof <file> --policy <file> [--receipt <file>] [--keys <file>]   offline: check a
                                   receipt's C2SP tlog-proof under a tlog-policy (no network)
  openbell --help                  this text

The keys, overrides, mail and backup commands open the service's database as the service does:
DATABASE_URL (PostgreSQL) when it is set, else the SQLite file in DATA_DIR (default data/ beside the
binary). They name it first (the password masked) and create none (no file, no tables in an empty
PostgreSQL database) unless given --init.`
