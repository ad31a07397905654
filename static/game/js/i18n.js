// @ts-check
/**
 * The client's words in the reader's language. Two homes, one per kind of word:
 * - the rules' sentences (verdicts, the shot list, K-11 notices, the result card) are made on the
 *   server from code+params by the rules' catalogues, in every language, and travel as a `words` map;
 *   `said` picks the page's language from it (never re-made here);
 * - the client's own words (HUD, controls, phase lines, end card, lobby, watch, replay) go through
 *   Django's JavaScriptCatalog (djangojs domain, game/locale/<lang>/LC_MESSAGES/djangojs.po), loaded
 *   once by a script tag from our origin (CSP: script-src 'self') before the modules run.
 * In node tests there is no catalogue: every function falls back to English.
 */

/** Django's catalogue (window.django, set by /jsi18n/), or null. */
function catalogue() {
  const d = globalThis.django;
  return d && typeof d.gettext === "function" ? d : null;
}

/** A message in the page's language (the msgid itself without a catalogue or a translation). */
export function gettext(msgid) {
  const d = catalogue();
  return d ? d.gettext(msgid) : msgid;
}

/** A message with a count: the language's plural form (Russian has three), English without a catalogue. */
export function ngettext(singular, plural, count) {
  const d = catalogue();
  if (d && typeof d.ngettext === "function") return d.ngettext(singular, plural, count);
  return count === 1 ? singular : plural;
}

/** A message in a context (the same English word translated two ways). */
export function pgettext(context, msgid) {
  const d = catalogue();
  return d && typeof d.pgettext === "function" ? d.pgettext(context, msgid) : msgid;
}

/**
 * Python-style named interpolation, as the .po files write it: interpolate("%(n)s watching", {n: 3}).
 * A name missing from `values` stays as written (a test sees it), never "undefined".
 */
export function interpolate(format, values) {
  return String(format).replace(/%\((\w+)\)s/g, (whole, name) =>
    values && Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : whole,
  );
}

/** The page's language ("en", "fi", "ru"), from <html lang> (Django's request language). */
export function language() {
  const doc = globalThis.document;
  const lang = (doc && doc.documentElement && doc.documentElement.lang) || "en";
  return lang.slice(0, 2).toLowerCase();
}

let portrait = false;

/**
 * The page draws the table in portrait (main.js, on every resize): the server's sentences that name
 * a pocket then come as `<lang>@portrait` too (game/engine/rules/words PORTRAIT), and are read first.
 */
export function setPortrait(on) {
  portrait = Boolean(on);
}

/** The key of the server's words for `lang` as this page draws the table, if it sent one. */
export function drawnKey(words, lang = language()) {
  return portrait && words && words[`${lang}@portrait`] ? `${lang}@portrait` : lang;
}

/**
 * The server's words for the page's language: `obj.words[lang]` (its portrait sentence on a portrait
 * table), else English, else `obj[field]` (events stored before `words` existed carry only English).
 */
export function said(obj, field = "text", lang = language()) {
  if (!obj) return "";
  const words = obj.words;
  if (words && typeof words === "object") {
    const drawn = words[drawnKey(words, lang)];
    if (drawn) return drawn;
    if (words.en && !obj[field]) return words.en;
  }
  return obj[field] || "";
}
