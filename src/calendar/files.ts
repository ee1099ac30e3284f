// Reading a schedules directory: one <MIC>.json per exchange.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { validateScheduleText, type ValidationResult } from './validate'

export interface ScheduleFileResult {
  mic: string
  path: string
  result: ValidationResult
}

const FILE_NAME = /^([A-Z0-9]{4})\.json$/

export function listScheduleFiles(dir: string): { mic: string; path: string }[] {
  return readdirSync(dir)
    .map((name) => FILE_NAME.exec(name))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => ({ mic: match[1]!, path: join(dir, match[0]) }))
    .sort((a, b) => a.mic.localeCompare(b.mic))
}

export function readScheduleFile(mic: string, path: string): ScheduleFileResult {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    return { mic, path, result: { ok: false, problems: [{ path: '', reason: `cannot read file: ${(error as Error).message}` }] } }
  }
  return { mic, path, result: validateScheduleText(text, mic) }
}

export function readScheduleDir(dir: string): ScheduleFileResult[] {
  return listScheduleFiles(dir).map(({ mic, path }) => readScheduleFile(mic, path))
}
