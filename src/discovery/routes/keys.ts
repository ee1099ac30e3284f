// GET /v5/keys, /.well-known/oracle-keys.json, /.well-known/jwks.json
import { Elysia, t } from 'elysia'
import type { DiscoveryDeps } from '../deps'
import { ApiError, jsonResponse } from '../../http/errors'
import { responses } from '../../http/openapi'
import { jwks, keyRegistry, wellKnownKeys } from '../key-documents'
import { transparencyKeyDocument } from '../../transparency/keys'
import { calendarPublisherKeyDocument } from '../../calendar/updates/publisher'

const KeyEntry = t.Object({
  key_id: t.String(),
  algorithm: t.Literal('Ed25519'),
  format: t.Literal('hex'),
  public_key: t.String({ pattern: '^[0-9a-f]{64}$' }),
  valid_from: t.String({ format: 'date-time' }),
  valid_until: t.Union([t.String({ format: 'date-time' }), t.Null()]),
  status: t.String(),
})

const FieldList = t.Array(t.String())
const KeyRegistrySchema = t.Object({
  issuer: t.String(),
  keys: t.Array(KeyEntry),
  canonical_payload_spec: t.Object({
    description: t.String(),
    receipt_fields: FieldList,
    override_fields: FieldList,
    health_fields: FieldList,
    safe_to_trade_fields: FieldList,
    witness_fields: FieldList,
  }, { additionalProperties: true }),
})

const JwksSchema = t.Object({
  keys: t.Array(t.Object({ kty: t.Literal('OKP'), crv: t.Literal('Ed25519'), x: t.String(), kid: t.String(), use: t.Literal('sig'), alg: t.Literal('EdDSA') })),
})

export function keyRoutes(deps: DiscoveryDeps) {
  const { signer, config } = deps
  return new Elysia({ name: 'discovery-keys' })
    .get('/v5/keys', () => ({ ...keyRegistry(signer.key, config.publicBaseUrl, config.issuer), ...transparencyKeyDocument(deps.transparency.keys), ...calendarPublisherKeyDocument(deps.calendarUpdates.publisher.key) }), {
      detail: { tags: ['discovery'], summary: 'Key registry and the canonical payload rule', responses: responses({ 200: ['Key registry', KeyRegistrySchema] }) },
    })
    .get('/.well-known/oracle-keys.json', () => wellKnownKeys(signer.key, config.publicBaseUrl, config.issuer), {
      detail: { tags: ['discovery'], summary: 'Well-known key document', responses: responses({ 200: ['Active keys with lifecycle metadata', t.Object({ keys: t.Array(t.Object({}, { additionalProperties: true })), jwks_uri: t.String() }, { additionalProperties: true })] }) },
    })
    .get(
      '/.well-known/jwks.json',
      () => {
        if (!signer.key) throw new ApiError(500, 'CONFIGURATION_ERROR', 'no public key is configured')
        return jsonResponse(jwks(signer.key), 200, { 'content-type': 'application/jwk-set+json', 'cache-control': 'public, max-age=300', vary: 'Origin' })
      },
      {
        detail: {
          tags: ['discovery'],
          summary: 'The signing key as an RFC 7517 JWK set (kid = RFC 7638 thumbprint)',
          responses: responses({ 200: ['JWK set', JwksSchema, 'application/jwk-set+json'], 500: 'CONFIGURATION_ERROR: no public key configured' }),
        },
      },
    )
}
