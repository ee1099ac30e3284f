// The pages' assets, embedded in the program (and so in the single binary): the stylesheet and
// favicon as text files, the browser script bundled at build time by a macro (bundle.ts). Each
// is served by this process with an ETag; nothing is fetched from another origin.
import styles from './assets/board.css' with { type: 'text' }
import favicon from './assets/favicon.svg' with { type: 'text' }
import { browserScript } from './bundle' with { type: 'macro' }
import { sha256Hex } from '../crypto/hash'

export const ASSET_PATHS = { script: '/assets/board.js', css: '/assets/board.css', favicon: '/favicon.svg' } as const

export interface Asset {
  body: string
  type: string
  etag: string
}

const asset = (body: string, type: string): Asset => ({ body, type, etag: `"${sha256Hex(body).slice(0, 32)}"` })

export const ASSETS: Record<keyof typeof ASSET_PATHS, Asset> = {
  script: asset(browserScript(), 'text/javascript; charset=utf-8'),
  css: asset(styles, 'text/css; charset=utf-8'),
  favicon: asset(favicon, 'image/svg+xml'),
}
