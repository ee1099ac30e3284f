// The parts of docs/ that tests run or compare with the code: what stands between
// `<!-- name:start -->` and `<!-- name:end -->` in a document, or the fenced code block there.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

const DOCS = join(import.meta.dir, '..', '..', 'docs')

/** The text between the markers (without the newlines next to them); throws when they are missing. */
export function docSection(document: string, name: string): string {
  const text = readFileSync(join(DOCS, document), 'utf8')
  const match = new RegExp(`<!-- ${name.replace(/\./g, '\\.')}:start -->\\n([\\s\\S]*?)\\n<!-- ${name.replace(/\./g, '\\.')}:end -->`).exec(text)
  if (!match) throw new Error(`docs/${document} has no ${name} section`)
  return match[1]!
}

/** The code of the one fenced block (```language) between the markers, ending with its newline. */
export function docCode(document: string, name: string, language: string): string {
  const match = new RegExp(`^\`\`\`${language}\\n([\\s\\S]*\\n)\`\`\`$`).exec(docSection(document, name))
  if (!match) throw new Error(`the ${name} section of docs/${document} is not one ${language} block`)
  return match[1]!
}
