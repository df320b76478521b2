// The book the page reads: named by the URL's `?book=` (the service's default book without it),
// with its title and its most connected people (where the views start when given no name).

// `asked` is what the URL names (requests carry it; none: they name no book, the service's
// default answers), `name` the book shown.
const asked = new URLSearchParams(location.search).get("book");
export const book = { asked, name: asked, title: "", hubs: [], all: [] };

// A person the views start on: the book's n-th most connected (the first when it has fewer).
export function hub(n = 0) {
  const hubs = book.hubs;
  return hubs.length ? hubs[Math.min(n, hubs.length - 1)].name : "";
}

// The URL of the page reading another book (the view starts over on that book's first person).
export function bookUrl(name) {
  const params = new URLSearchParams(location.search);
  params.set("book", name);
  return `${location.pathname}?${params.toString()}`;
}

// An unknown book is reported with the served ones, from the list (no failing request).
export async function loadBook(request, ApiError) {
  const all = await request("/books");
  const name = book.name || (all.find((b) => b.default) || all[0]).name;
  if (!all.some((b) => b.name === name)) {
    throw new ApiError(404, `unknown book '${name}'`, all.map((b) => b.name));
  }
  const one = await request(`/books/${encodeURIComponent(name)}`);
  book.all = all;
  book.name = one.name;
  book.title = one.title;
  book.hubs = one.hubs;
  return book;
}
