// The new-club form's address made from the name (static/game/js/pages/club_form.js), the same as the
// server's (game/clubs/services.py club_slug_from_name; tests/clubs/test_clubs.py reads the same file).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { slugFromName } from "../../static/game/js/pages/club_form.js";

const examples = JSON.parse(readFileSync(new URL("./fixtures/slugs.json", import.meta.url)));

test("the address from the name, as the server makes it", () => {
  for (const [name, slug] of examples) assert.equal(slugFromName(name), slug, name);
});
