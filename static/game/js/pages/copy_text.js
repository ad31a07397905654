// @ts-check
/**
 * The forum posts' "Copy" buttons (game/templates/game/tournaments/announce.html): each copies its
 * textarea's text. The site's policy runs no inline handler, so the clicks are wired here; where the
 * clipboard is not offered (a page over plain http), the text is selected for the director to copy.
 */
for (const button of document.querySelectorAll("[data-copy]")) {
  button.addEventListener("click", () => {
    const area = document.getElementById(button.getAttribute("data-copy") || "");
    if (!(area instanceof HTMLTextAreaElement)) return;
    area.select();
    if (navigator.clipboard) {
      navigator.clipboard.writeText(area.value).then(
        () => button.setAttribute("data-copied", "1"),
        () => button.removeAttribute("data-copied"),
      );
    }
  });
}
