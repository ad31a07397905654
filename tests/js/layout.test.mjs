// The client's layout (docs/architecture.md): the pure core never imports a page, every script a
// template loads is a page under static/game/js/pages/, and every module is type-checked.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync, existsSync } from "node:fs";
import { join, relative, dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const JS = join(ROOT, "static/game/js");
const PAGES = join(JS, "pages");

function walk(dir, suffix) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return walk(path, suffix);
    return entry.name.endsWith(suffix) ? [path] : [];
  });
}

/** The modules a module imports (static and dynamic; a JSDoc type's import("./types") is no module), as paths. */
function importsOf(file) {
  const text = readFileSync(file, "utf8");
  const found = [...text.matchAll(/(?:from\s+|import\s*\(\s*)["'](\.{1,2}\/[^"']+\.js)["']/g)].map((m) => m[1]);
  return found.map((spec) => resolve(dirname(file), spec));
}

const modules = walk(JS, ".js");

test("the scanner sees static and dynamic imports", () => {
  const watch = join(PAGES, "watch.js");
  assert.ok(importsOf(watch).includes(join(JS, "i18n.js")));
  assert.ok(importsOf(watch).includes(join(JS, "render/table.js")), "import() of a module counts too");
});

test("no module of the core imports a page", () => {
  const offenders = modules
    .filter((file) => !file.startsWith(PAGES + "/"))
    .flatMap((file) => importsOf(file).filter((dep) => dep.startsWith(PAGES + "/")).map((dep) => `${relative(JS, file)} -> ${relative(JS, dep)}`));
  assert.deepEqual(offenders, []);
});

test("every import names a module that exists", () => {
  const missing = modules.flatMap((file) => importsOf(file).filter((dep) => !existsSync(dep)).map((dep) => `${relative(JS, file)} -> ${relative(JS, dep)}`));
  assert.deepEqual(missing, []);
});

test("every script a template loads is a page in pages/", () => {
  const loaded = new Set();
  for (const template of walk(join(ROOT, "game/templates"), ".html")) {
    const text = readFileSync(template, "utf8");
    for (const m of text.matchAll(/\{%\s*static\s+['"]game\/js\/([^'"]+\.js)['"]\s*%\}/g)) loaded.add(m[1]);
  }
  assert.ok(loaded.size >= 10, `found the templates' scripts (${loaded.size})`);
  const astray = [...loaded].filter((path) => !path.startsWith("pages/") || !existsSync(join(JS, path)));
  assert.deepEqual(astray, []);
});

test("every module is checked by tsc (// @ts-check on its first line)", () => {
  const unchecked = modules.filter((file) => !readFileSync(file, "utf8").startsWith("// @ts-check")).map((f) => relative(JS, f));
  assert.deepEqual(unchecked, []);
});
