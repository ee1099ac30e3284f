// The SVG status card (/v5/card/{mic}): an unsigned picture of the current resolution.
import type { Resolution } from './resolve'

const COLOURS: Record<string, string> = { OPEN: '#1a7f37', CLOSED: '#57606a', HALTED: '#cf222e', UNKNOWN: '#bf8700' }

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!)
}

export function statusCard(resolution: Resolution, name: string, now: number): string {
  const colour = COLOURS[resolution.status] ?? COLOURS.UNKNOWN
  const text = (x: number, y: number, size: number, weight: string, fill: string, content: string) =>
    `<text x="${x}" y="${y}" font-family="system-ui, sans-serif" font-size="${size}" font-weight="${weight}" fill="${fill}">${escapeXml(content)}</text>`
  const title = `${resolution.mic}: ${resolution.status}`
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="420" height="132" viewBox="0 0 420 132" role="img" aria-label="${escapeXml(title)}">`,
    `<title>${escapeXml(title)}</title>`,
    '<rect width="420" height="132" rx="10" fill="#ffffff" stroke="#d0d7de"/>',
    text(16, 30, 18, '700', '#24292f', resolution.mic),
    text(80, 30, 13, '400', '#57606a', name.length > 44 ? `${name.slice(0, 43)}…` : name),
    `<rect x="16" y="44" width="120" height="30" rx="6" fill="${colour}"/>`,
    text(28, 65, 16, '700', '#ffffff', resolution.status),
    text(150, 64, 13, '400', '#24292f', `source ${resolution.source}`),
    text(16, 96, 12, '400', '#57606a', new Date(now).toISOString()),
    text(16, 118, 12, '400', '#57606a', 'Unsigned card. Signed receipts: /v5/status; verify at /v5/verify'),
    '</svg>',
  ].join('')
}
