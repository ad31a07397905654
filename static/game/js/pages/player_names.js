// @ts-check
/**
 * The walk-in field of an event at the club (game/templates/game/tournaments/tournament.html): as the
 * director types a name, the club's players holding it are offered below the field
 * (GET /clubs/<slug>/players/search/?q=, compared as the server compares names: case, accents and
 * look-alike letters aside, game/common/names.py). Choosing one fills the field; the server finds the
 * player of whatever is sent, so an offer ignored changes nothing. The site's policy runs no inline
 * handler (settings.CONTENT_SECURITY_POLICY), so the field is wired here.
 */

/** Milliseconds of quiet typing before the register is asked. */
const QUIET_MS = 150;

/**
 * @param {HTMLInputElement} field
 * @param {HTMLElement} list
 */
function wire(field, list) {
  const url = field.dataset.playerSearch || "";
  let timer = 0;
  let asked = 0;
  const show = (/** @type {{name: string, account: string | null}[]} */ players) => {
    list.replaceChildren(
      ...players.map((player) => {
        const item = document.createElement("li");
        const choose = document.createElement("button");
        choose.type = "button";
        choose.className = "small secondary";
        choose.textContent = player.account ? `${player.name} (${player.account})` : player.name;
        choose.addEventListener("click", () => {
          field.value = player.name;
          list.replaceChildren();
          field.focus();
        });
        item.append(choose);
        return item;
      }),
    );
  };
  field.addEventListener("input", () => {
    window.clearTimeout(timer);
    const typed = field.value.trim();
    if (!typed) {
      show([]);
      return;
    }
    timer = window.setTimeout(async () => {
      const mine = ++asked;
      try {
        const answer = await fetch(`${url}?q=${encodeURIComponent(typed)}`, { credentials: "same-origin" });
        const body = answer.ok ? await answer.json() : { players: [] };
        if (mine === asked) show(Array.isArray(body.players) ? body.players : []);
      } catch {
        if (mine === asked) show([]);  // offline: no offers, the field still works
      }
    }, QUIET_MS);
  });
}

for (const field of document.querySelectorAll("input[data-player-search]")) {
  const list = field.closest("form")?.querySelector("[data-player-suggestions]");
  if (field instanceof HTMLInputElement && list instanceof HTMLElement) wire(field, list);
}
