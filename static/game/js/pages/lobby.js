// @ts-check
// The live lobby: the open-matches table is replaced whenever the server pushes `matches`
// over ws/lobby/ (docs/protocol.md). Reconnects with the pages' backoff (socket.js); no globals.

import { gettext, interpolate } from "../i18n.js";
import { quickPairing } from "./quickpair.js";
import { createReconnectingSocket, pageSocketUrl } from "../socket.js";

const tbody = document.getElementById("open-matches");
const status = document.getElementById("lobby-status");

/** A cell; `label`: its column's name, which a phone's stacked row reads before the value. */
function cell(text, label = "") {
  const td = document.createElement("td");
  td.textContent = text;
  if (label) td.dataset.label = label;
  return td;
}

/** A team match's type: "2 vs 2 · 3 open". */
export function teamWords(m) {
  return interpolate(gettext("%(size)s vs %(size)s · %(open)s open"), { size: m.team_size, open: m.open_places });
}

export function renderMatches(matches) {
  const rows = matches.map((m) => {
    const tr = document.createElement("tr");
    tr.dataset.matchId = m.id;
    tr.append(
      cell(m.creator ?? "?"),
      cell(m.rating ?? "", gettext("Rating")),
      cell(m.team_size ? teamWords(m) : m.rated ? gettext("rated") : gettext("casual")),
      cell(m.time_limit ? interpolate(gettext("%(n)s min"), { n: Math.round(m.time_limit / 60) }) : "–", gettext("Time limit")),
      cell(m.shot_clock ? interpolate(gettext("%(n)s s"), { n: m.shot_clock }) : "–", gettext("Shot clock")),
    );
    const td = document.createElement("td");
    const link = document.createElement("a");
    link.className = "button small";
    link.href = m.url;
    link.textContent = gettext("Open");
    td.append(link);
    tr.append(td);
    return tr;
  });
  if (rows.length === 0) {
    const tr = document.createElement("tr");
    tr.className = "empty";
    const td = cell(gettext("No open matches: create one."));
    td.colSpan = 6;
    tr.append(td);
    rows.push(tr);
  }
  tbody.replaceChildren(...rows);
}

const seeks = quickPairing((message) => lobby && lobby.send(message));

/** @param {import("../types").LobbyServerMessage} msg */
function heard(msg) {
  if (msg.t === "matches") renderMatches(msg.d.matches);
  else seeks.onMessage(msg);
}

const lobby = tbody
  ? createReconnectingSocket({
      url: pageSocketUrl("/ws/lobby/"),
      onOpen: () => {
        status.textContent = gettext("Live");
      },
      onMessage: heard,
      onClose: (detail) => {
        seeks.onClose();
        // 4429: refused for too many sockets of this address (game/realtime/socket_lifecycle.py): say why.
        status.textContent = detail.code === 4429 && detail.reason ? detail.reason : gettext("Reconnecting…");
      },
    })
  : null;
