// The pages' one script, bundled at build time (board/bundle.ts). <body data-page> says which
// page this is; everything the pages show is already in the server's HTML, and this script only
// keeps it live and does what needs the browser (filtering, verifying signatures).
import { startFilter } from './filter'
import { startLiveBoard } from './live'
import { startVerifyPage } from './verify-page'
import { startWitnessPage } from './witness-page'

const page = document.body.dataset.page
if (page === 'board') {
  const filter = startFilter()
  startLiveBoard(filter.apply)
} else if (page === 'venue') {
  startLiveBoard()
} else if (page === 'verify') {
  void startVerifyPage()
} else if (page === 'witness') {
  void startWitnessPage()
}
