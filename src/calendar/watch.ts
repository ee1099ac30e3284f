// Hot reload on file changes. Editors save by writing a temp file and renaming it, which a
// per-file watch misses; so watch the directory, debounce, and reload the whole set.
import { watch, type FSWatcher } from 'node:fs'

export function watchDirectory(dir: string, onChange: () => void, debounceMs = 300): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null
  let watcher: FSWatcher | null = null
  try {
    watcher = watch(dir, (_event, name) => {
      if (name && !String(name).endsWith('.json')) return
      if (timer) clearTimeout(timer)
      timer = setTimeout(() => {
        timer = null
        onChange()
      }, debounceMs)
    })
  } catch {
    // No watcher (e.g. the directory is missing): SIGHUP and the admin endpoint still work.
    return () => {}
  }
  return () => {
    if (timer) clearTimeout(timer)
    watcher?.close()
  }
}
