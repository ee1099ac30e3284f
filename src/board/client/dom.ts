// Small DOM helpers for the pages' script. Elements are built with textContent only (never
// innerHTML), so nothing a receipt or the service says is ever read as markup.

type Child = Node | string | null | undefined | false

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Record<string, string> = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag)
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value)
  for (const child of children) if (child !== null && child !== undefined && child !== false) element.append(child)
  return element
}

export function byId<T extends HTMLElement = HTMLElement>(id: string): T | null {
  return document.getElementById(id) as T | null
}

/** Sets the text only when it changed (a screen reader or a selection is not disturbed needlessly). */
export function setText(node: Element | null, text: string): void {
  if (node && node.textContent !== text) node.textContent = text
}

/** Says something through the page's polite live region. */
export function announce(text: string): void {
  const region = byId('announcer')
  if (!region) return
  region.textContent = ''
  // A fresh text node after clearing makes screen readers read a repeated message again.
  window.setTimeout(() => (region.textContent = text), 50)
}
