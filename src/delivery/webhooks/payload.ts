// The body of a webhook delivery: one state change of one MIC, with the full signed receipt of
// the new state (verifiable on its own with the published key).
import type { MarketReceipt } from '../../market/receipt'

export interface DeliveryBody {
  type: 'status_change'
  webhook_id: string
  mic: string
  previous_status: string
  current_status: string
  receipt: MarketReceipt
  occurred_at: string
  /** Present (true) only on the synthetic delivery of POST /v5/webhooks/test/{id}. */
  test?: true
}

export function deliveryBody(fields: Omit<DeliveryBody, 'type'>): DeliveryBody {
  return { type: 'status_change', ...fields }
}
