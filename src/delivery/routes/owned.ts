// The subscription a request names, if the key owns it: 404 unknown, 403 someone else's.
import type { AccountRow } from '../../accounts/store'
import { ApiError } from '../../http/errors'
import type { WebhookRow, WebhookStore } from '../webhooks/store'

export async function ownedWebhook(store: WebhookStore, account: AccountRow, id: string): Promise<WebhookRow> {
  const row = /^[0-9a-f-]{36}$/.test(id) ? await store.get(id) : null
  if (!row) throw new ApiError(404, 'WEBHOOK_NOT_FOUND', 'no webhook subscription with this id')
  if (row.key_hash !== account.key_hash) throw new ApiError(403, 'WEBHOOK_NOT_OWNED', 'this webhook subscription belongs to another key')
  return row
}
