// The service's JSON routes; an error carries the response's detail and suggestions.

import { book } from "./book.js";

export class ApiError extends Error {
  constructor(status, detail, suggestions) {
    super(detail);
    this.status = status;
    this.suggestions = suggestions || [];
  }
}

// Every request reads the page's book (`?book=` of the page; none: the service's default).
function withBook(path) {
  if (!book.asked || path.startsWith("/books")) return path;
  return `${path}${path.includes("?") ? "&" : "?"}book=${encodeURIComponent(book.asked)}`;
}

export async function request(path, options = {}) {
  const response = await fetch(withBook(path), { headers: { Accept: "application/json" }, ...options });
  let body = null;
  try {
    body = await response.json();
  } catch (err) {
    throw new ApiError(response.status, `${path}: not JSON (HTTP ${response.status})`);
  }
  if (!response.ok) {
    throw new ApiError(response.status, body && body.detail ? body.detail : `HTTP ${response.status}`,
                       body && body.suggestions);
  }
  return body;
}

// A typed name → the person's id, by the suggestion index (so an unknown name is reported with
// the closest names without a failing request); an id is taken as it is.
export async function resolvePerson(name) {
  if (/^[a-z][a-z0-9_]*$/.test(name)) return name;
  const found = await api.suggest(name, 6);
  const exact = found.find((m) => m.exact);
  if (exact) return exact.id;
  throw new ApiError(404, `unknown person '${name}'`, found.map((m) => m.name));
}

const q = (params) => new URLSearchParams(params).toString();
const enc = encodeURIComponent;

export const api = {
  suggest: (text, limit = 10) => request(`/kb/suggest?${q({ q: text, limit })}`),
  graph: (person) => request(`/kb/graph/${enc(person)}`),
  events: (person) => request(`/kb/people/${enc(person)}/events`),
  pair: (a, b) => request(`/kb/pair?${q({ a, b })}`),
  journey: (person) => request(`/kb/journey/${enc(person)}`),
  stageEvents: (person, stage, offset) => request(`/kb/journey/${enc(person)}?${q({ stage, offset })}`),
  path: (a, b) => request(`/kb/path?${q({ a, b })}`),
  record: (id) => request(`/kb/records/${enc(id)}`),
  chunk: (id, quote) => request(`/chunks/${enc(id)}${quote ? `?${q({ quote })}` : ""}`),
  subgraph: (ids) => request(`/kb/subgraph?${ids.map((id) => `records=${enc(id)}`).join("&")}`),
  ask: (question, sessionId) => request("/ask", {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(sessionId ? { question, session_id: sessionId } : { question }),
  }),
};
