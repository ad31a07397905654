/**
 * The director's result form on the tables page (game/templates/game/tournaments/_result_fields.html,
 * issue 28): the shoot-out winner's radios only while "in the shoot-out" is chosen, as the other ends
 * take their winner from the scores. Hidden, the fieldset is also disabled, so its radios are not sent;
 * without this script every form shows them and the server ignores a tick beside another end
 * (game/tournaments/services/club.py result_winner). The site's policy runs no inline handler
 * (settings.CONTENT_SECURITY_POLICY), so the form is wired here.
 */
const SHOOTOUT = "shootout";

for (const fields of document.querySelectorAll("[data-result-fields]")) {
  const ended = fields.querySelector("select[name=ended]");
  const winner = fields.querySelector("[data-shootout-winner]");
  if (ended === null || winner === null) continue;
  const show = () => {
    const shootout = ended.value === SHOOTOUT;
    winner.hidden = !shootout;
    winner.disabled = !shootout;
  };
  ended.addEventListener("change", show);
  show();
}
