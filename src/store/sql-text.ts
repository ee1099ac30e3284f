// One statement text for both backends: written with PostgreSQL's numbered parameters ($1, $2…),
// bound on bun:sqlite as ?1, ?2… (bun:sqlite would read $1 as a parameter named "1").
export const positional = (text: string) => text.replace(/\$(\d+)/g, '?$1')
