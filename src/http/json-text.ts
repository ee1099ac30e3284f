// JSON answered as text already serialised (a logged receipt, stored receipt bodies joined):
// the content type Elysia gives a returned object, set by the route that returns the text.
export const JSON_CONTENT_TYPE = 'application/json;charset=utf-8'
