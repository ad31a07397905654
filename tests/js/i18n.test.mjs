// The client's words (static/game/js/i18n.js and the HUD's words): English without a catalogue (node),
// the reader's language with the real djangojs catalogue (read from game/locale/<lang>/…/djangojs.po),
// and the server's `words` map picked for the page's language, never re-made here.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

import { gettext, interpolate, language, ngettext, said, setPortrait } from "../../static/game/js/i18n.js";
import { describeCall, describeVerdict, entryWords, phaseName } from "../../static/game/js/ui/words.js";
import { phaseDetail, timeoutWords } from "../../static/game/js/ui/phase.js";
import { endCard } from "../../static/game/js/ui/endcard.js";

const PLURAL = {
  fi: (n) => (n !== 1 ? 1 : 0),
  ru: (n) => (n % 10 === 1 && n % 100 !== 11 ? 0 : n % 10 >= 2 && n % 10 <= 4 && (n % 100 < 10 || n % 100 >= 20) ? 1 : 2),
};

/** The committed .po file as Django's JavaScriptCatalog would serve it (msgid -> msgstr or forms). */
function loadCatalogue(lang) {
  const text = readFileSync(new URL(`../../game/locale/${lang}/LC_MESSAGES/djangojs.po`, import.meta.url), "utf8");
  const unquote = (s) => JSON.parse(s);
  const catalog = {};
  for (const block of text.split("\n\n")) {
    const lines = block.split("\n").filter((l) => !l.startsWith("#"));
    const id = lines.find((l) => l.startsWith("msgid "));
    if (!id) continue;
    const ctx = lines.find((l) => l.startsWith("msgctxt "));
    const msgid = (ctx ? `${unquote(ctx.slice(8))}\x04` : "") + unquote(id.slice(6));
    if (!msgid) continue;
    const single = lines.find((l) => l.startsWith("msgstr "));
    catalog[msgid] = single ? unquote(single.slice(7)) : lines.filter((l) => l.startsWith("msgstr[")).map((l) => unquote(l.slice(l.indexOf(" ") + 1)));
  }
  return {
    gettext: (m) => (typeof catalog[m] === "string" && catalog[m] ? catalog[m] : m),
    pgettext: (c, m) => catalog[`${c}\x04${m}`] || m,
    ngettext: (s, p, n) => (Array.isArray(catalog[s]) ? catalog[s][PLURAL[lang](n)] : n === 1 ? s : p),
  };
}

function withLanguage(lang, body) {
  const saved = [globalThis.django, globalThis.document];
  globalThis.django = lang === "en" ? undefined : loadCatalogue(lang);
  globalThis.document = { documentElement: { lang } };
  try {
    body();
  } finally {
    [globalThis.django, globalThis.document] = saved;
  }
}

const VERDICT = {
  reason: "Potted the kaisa in the top right pocket: 6 points",
  words: {
    en: "Potted the kaisa in the top right pocket: 6 points",
    fi: "Kaisa oikeaan yläkulmapussiin: 6 pistettä",
    ru: "Забита кайза в верхнюю правую лузу: 6 очков",
  },
  points: 6,
};

test("i18n: English without a catalogue (node), named interpolation, plural", () => {
  assert.equal(language(), "en");
  assert.equal(gettext("Shoot-out"), "Shoot-out");
  assert.equal(ngettext("%(n)s timeout", "%(n)s timeouts", 2), "%(n)s timeouts");
  assert.equal(interpolate("%(player)s to %(action)s", { player: "aino", action: "shoot" }), "aino to shoot");
  assert.equal(interpolate("%(player)s wins", {}), "%(player)s wins", "a missing name stays visible");
  assert.equal(said(VERDICT, "reason"), VERDICT.words.en);
  assert.equal(said({ reason: "old English only" }, "reason", "fi"), "old English only", "events stored before words");
  assert.equal(describeVerdict(VERDICT), "Potted the kaisa in the top right pocket: 6 points · +6");
});

test("i18n: a portrait table reads the server's portrait sentence where it sent one", () => {
  const verdict = {
    reason: "Potted the kaisa in the top right pocket",
    words: { en: "Potted the kaisa in the top right pocket", "en@portrait": "Potted the kaisa in the top left pocket", fi: "Kaisa oikeaan yläkulmapussiin" },
  };
  try {
    setPortrait(true);
    assert.equal(said(verdict, "reason"), "Potted the kaisa in the top left pocket");
    assert.equal(said(verdict, "reason", "fi"), "Kaisa oikeaan yläkulmapussiin", "no portrait sentence: the one sentence");
    setPortrait(false);
    assert.equal(said(verdict, "reason"), "Potted the kaisa in the top right pocket");
  } finally {
    setPortrait(false);
  }
});

test("i18n: the HUD's own words in Finnish and Russian, from the committed catalogues", () => {
  withLanguage("fi", () => {
    assert.equal(language(), "fi");
    assert.equal(phaseName("shootout"), "Ratkaisulyönnit");
    assert.equal(phaseName("play"), "Peli", "the phase (a noun), not the replay's Play button (a verb)");
    assert.equal(gettext("Play"), "Pelaa");
    assert.equal(describeCall({ ball: "red1", pocket: "foot_left", object_cushions: 2, via: "kaisa" }), "punainen → oikea yläkulma · 2 vallia · välipallo: kaisa");
    assert.equal(timeoutWords({ timeouts: { aino: 1 }, timeout_limit: 3 }, "aino"), "1/3 aikaylitys");
  });
  withLanguage("ru", () => {
    assert.equal(phaseName("lag"), "Розыгрыш начального удара");
    assert.equal(timeoutWords({ timeouts: { boris: 2 } }, "boris"), "2 просрочки");
    assert.equal(timeoutWords({ timeouts: { boris: 5 } }, "boris"), "5 просрочек");
    const game = { phase: "shootout", players: [{ name: "aino" }, { name: "boris" }], turn: 1, shootout: { stage: "choose" } };
    assert.equal(phaseDetail(game), "Серия пенальти: boris выбирает, кто начинает");
  });
});

test("i18n: the server's sentences are picked for the page's language, never re-made", () => {
  withLanguage("fi", () => {
    assert.equal(describeVerdict(VERDICT), "Kaisa oikeaan yläkulmapussiin: 6 pistettä · +6");
    const row = entryWords({ v: 3, player: "aino", kind: "shot", text: VERDICT.reason, words: VERDICT.words, points: 6, call: { ball: "kaisa", pocket: "foot_left" } });
    assert.equal(row.why, VERDICT.words.fi);
    assert.equal(row.what, "kaisa → oikea yläkulma");
  });
  withLanguage("ru", () => {
    assert.equal(describeVerdict(VERDICT), "Забита кайза в верхнюю правую лузу: 6 очков · +6");
    const result = { winner: "aino", how: "target", scores: [60, 41], text: "aino won: reached 60", words: { en: "aino won: reached 60", ru: "aino выигрывает: набрано 60" }, rated: false };
    const card = endCard({ result, shown: { phase: "finished", players: [{ name: "aino", score: 60 }, { name: "boris", score: 41 }] }, me: "boris" });
    assert.equal(card.title, "Побеждает aino");
    assert.equal(card.reason, "aino выигрывает: набрано 60");
    assert.equal(card.rated, "Товарищеская партия: рейтинг не меняется");
  });
});
