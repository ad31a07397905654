// @ts-check
/**
 * The new-club form: the address (`/clubs/<address>/`) is filled in from the name as it is typed, the
 * way the server makes it when none is given (game/clubs/services.py club_slug_from_name; the examples
 * in tests/js/fixtures/slugs.json hold both to the same rule), until the player types an address of
 * their own.
 */

/** "Äänekosken Kaisa" -> "aanekosken-kaisa": accents off, lower case, other runs one hyphen. Pure. */
export function slugFromName(name) {
  const folded = String(name).normalize("NFKD").replace(/[^\x00-\x7f]/g, "").toLowerCase();
  return folded.replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 64).replace(/-+$/g, "");
}

/** Binds the form's name and address fields; returns the unbind function. */
export function bindClubForm(form) {
  const name = form.querySelector("input[name=name]");
  const slug = form.querySelector("input[name=slug]");
  if (!name || !slug) return () => {};
  // Typed by hand (or kept from a refused post): no longer the name's.
  let own = slug.value !== "" && slug.value !== slugFromName(name.value);
  const onName = () => {
    if (!own) slug.value = slugFromName(name.value);
  };
  const onSlug = () => {
    own = slug.value !== "" && slug.value !== slugFromName(name.value);
  };
  name.addEventListener("input", onName);
  slug.addEventListener("input", onSlug);
  return () => {
    name.removeEventListener("input", onName);
    slug.removeEventListener("input", onSlug);
  };
}

if (typeof document !== "undefined") {
  const form = document.querySelector("form[data-club-form]");
  if (form) bindClubForm(form);
}
