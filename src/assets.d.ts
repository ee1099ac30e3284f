// Text files imported with `with { type: 'text' }` (embedded in the compiled binary).
declare module '*.md' {
  const text: string
  export default text
}
declare module '*.txt' {
  const text: string
  export default text
}
// Swagger UI files embedded as text by discovery/routes/docs.ts (import … with { type: 'text' }).
declare module 'swagger-ui-dist/swagger-ui-bundle.js' {
  const text: string
  export default text
}
declare module 'swagger-ui-dist/swagger-ui.css' {
  const text: string
  export default text
}
// The board pages' stylesheet and favicon (src/board/assets.ts).
declare module '*.css' {
  const text: string
  export default text
}
declare module '*.svg' {
  const text: string
  export default text
}
