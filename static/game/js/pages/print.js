// @ts-check
/**
 * The score sheets' "Print" button (game/templates/game/tournaments/sheets.html): the site's policy runs
 * no inline handler (settings.CONTENT_SECURITY_POLICY), so the click is wired here.
 */
for (const button of document.querySelectorAll("[data-print]")) {
  button.addEventListener("click", () => window.print());
}
