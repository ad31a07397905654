// @ts-check
/**
 * The heads-up display, in the DOM: players, scores, whose turn, phase, clocks, the last verdict in
 * words, the shot list, connection, spectators, the end-of-match banner. It only reads the state;
 * DOM writes happen only when a value changed.
 */

import { activePlayer, cutOff, myActions, mySeat, phaseKey, secondsLeft, sending, shotClockLeft } from "../state.js";
import { canOfferRematch, endCard, nameRuns } from "./endcard.js";
import {
  matchClockText,
  phaseAnnouncement,
  phaseDetail,
  SHOT_CLOCK_WARNING_S,
  shotClockTooltip,
  timeWarned,
  timeoutWords,
} from "./phase.js";
import { gettext, interpolate, ngettext, said } from "../i18n.js";
import { memberLabel, teamOfMember, teamsOf, waitingTeams } from "./teams.js";
import { setAttr, setHidden, setText } from "./dom.js";
import { actionWords, ballName, describeVerdict, entryWords, formatClock, phaseName, ruleUrl } from "./words.js";

const VERDICT_SHOW_MS = 6000;
const NOTICE_SHOW_MS = 6000;
/** "sending…" shows once an input waited this long (a quick answer does not flicker it). */
const SENDING_SHOW_MS = 250;
const TOAST_SHOW_MS = 4500;

/** `text` in `el`, each of `names` in a span that keeps it on one line (ui/endcard.js nameRuns). */
function setNamedText(el, text, names) {
  if (!el || el.textContent === text) return;
  el.replaceChildren(
    ...nameRuns(text, names).map((run) => {
      if (!run.name) return document.createTextNode(run.text);
      const span = document.createElement("span");
      span.className = "kz-nowrap";
      span.textContent = run.text;
      return span;
    }),
  );
}

/**
 * @param {HTMLElement} root the #kaiza-match element
 */
export function createHud(root) {
  const $ = (/** @type {string} */ sel) => /** @type {HTMLElement} */ (root.querySelector(sel));
  const seats = [0, 1].map((i) => {
    const el = /** @type {HTMLElement} */ (root.querySelector(`.kz-player[data-seat="${i}"]`));
    return {
      el,
      name: el.querySelector(".kz-name"),
      score: /** @type {HTMLElement} */ (el.querySelector(".kz-score")),
      chip: el.querySelector(".kz-chip"),
      note: el.querySelector(".kz-player-note"),
      members: /** @type {HTMLElement} */ (el.querySelector(".kz-members")),
    };
  });
  const phase = $(".kz-phase");
  const turn = $(".kz-turn");
  const shotClock = $(".kz-shotclock");
  const matchClock = $(".kz-matchclock");
  const verdict = $(".kz-verdict");
  const toast = $(".kz-toast");
  const detail = $(".kz-phase-detail");
  const notice = $(".kz-notice");
  const sendingEl = $(".kz-sending");
  const lost = $(".kz-lost");
  const lostText = lost.querySelector(".kz-lost-text");
  const lostWords = lostText ? lostText.textContent : "";
  const end = $(".kz-end");
  const endTitle = end.querySelector(".kz-end-title");
  const endReason = end.querySelector(".kz-end-reason");
  const endScore = end.querySelector(".kz-end-score");
  const endRatings = end.querySelector(".kz-end-ratings");
  const endRated = end.querySelector(".kz-end-rated");
  const endRatedHelp = /** @type {HTMLElement} */ (end.querySelector(".kz-end-rated-help"));
  const endRematch = /** @type {HTMLElement} */ (end.querySelector(".kz-end-rematch"));
  const rematchButton = /** @type {HTMLElement} */ (end.querySelector(".kz-rematch"));
  const shots = $(".kz-shots");
  const shotCount = $(".kz-history-count");
  const connection = $(".kz-connection");
  const latency = $(".kz-latency");
  const spectators = $(".kz-spectators");
  let lastHistory = null;
  let lastVerdict = null;
  let verdictAt = 0;
  let lastError = null;
  let prevScores = [null, null];
  let lastStateShown = null;
  let lastAnnounce = null;
  let announceAt = 0;
  let sendingSince = null;
  let lastEnd = null;
  let lastTeams = ["", ""];

  /** An open team match: the banner's team lists follow the joins (presence), open places last. */
  function updateWaitingTeams(teams) {
    if (!teams) return;
    teams.forEach((team, i) => {
      const list = /** @type {HTMLElement} */ (root.querySelector(`.kz-team-side[data-team="${i}"] .kz-team-list`));
      if (!list || !team.members.length) return;
      const key = JSON.stringify(team);
      if (list.dataset.shown === key) return;
      list.dataset.shown = key;
      const items = team.members.map((name) => {
        const li = document.createElement("li");
        li.textContent = name;
        return li;
      });
      const openWord = list.dataset.openWord || gettext("open place");
      for (let k = 0; k < team.open; k++) {
        const li = document.createElement("li");
        li.className = "kz-team-open";
        li.textContent = openWord;
        items.push(li);
      }
      list.replaceChildren(...items);
    });
  }

  /** Team matches: each side's members in playing order, who is at the table, who plays next. */
  function updateTeams(teams) {
    [0, 1].forEach((i) => {
      const box = seats[i] && seats[i].members;
      if (!box) return;
      const team = teams && teams[i];
      setHidden(box, !team);
      const key = team ? JSON.stringify(team) : "";
      if (key === lastTeams[i]) return;
      lastTeams[i] = key;
      if (!team) {
        box.replaceChildren();
        return;
      }
      box.replaceChildren(
        ...team.members.map((m) => {
          const span = document.createElement("span");
          span.className = "kz-member";
          span.textContent = memberLabel(m, team);
          setAttr(span, "data-playing", m.playing ? "yes" : null);
          setAttr(span, "data-next", m.atTable && !team.toPlay ? "yes" : null);
          setAttr(span, "data-me", m.me ? "yes" : null);
          setAttr(span, "data-connected", m.connected ? "yes" : "no");
          return span;
        }),
      );
    });
  }

  function updateConnection(state, now) {
    const label = {
      open: gettext("Online"),
      connecting: gettext("Connecting"),
      reconnecting: gettext("Reconnecting…"),
      lost: gettext("Connection lost"),
      closed: gettext("Offline"),
    };
    setText(connection, label[state.connection] || state.connection);
    setAttr(connection, "data-status", state.connection);
    setText(latency, state.connection === "open" && state.latency ? `${Math.round(state.latency)} ms` : "");
    const watching = state.presence.spectators || 0;
    const watchingText = interpolate(ngettext("%(n)s watching", "%(n)s watching", watching), { n: watching });
    setText(spectators, watchingText);
    setAttr(spectators, "title", watchingText);
    // Refused for too many sockets: the server's words (or ours) in the same card, as it tries again.
    const refusal = state.refusal ?? null;
    const off = (cutOff(state) && state.connection !== "closed") || refusal !== null;
    setHidden(lost, !off);
    setAttr(root, "data-lost", off ? "yes" : null);
    setAttr(root, "data-refused", refusal !== null ? "yes" : null);
    if (lostText) {
      setText(lostText, refusal === null ? lostWords : refusal || gettext("Too many connections: close another tab and try again."));
    }
    if (sending(state)) {
      if (sendingSince === null) sendingSince = now;
    } else {
      sendingSince = null;
    }
    const showSending = sendingSince !== null && now - sendingSince >= SENDING_SHOW_MS;
    setHidden(sendingEl, !showSending);
    setAttr(root, "data-sending", sending(state) ? "yes" : null);
  }

  function update(state, now, epoch) {
    const game = state.shown;
    setAttr(root, "data-role", state.role);
    setAttr(root, "data-connection", state.connection);
    updateConnection(state, now);
    if (!game) {
      const waiting = state.match && state.match.status === "open";
      const teamsWaiting = waiting ? waitingTeams(state.match, state.presence.players) : null;
      setText(phase, waiting ? gettext("Open match") : state.connection === "open" ? gettext("Loading…") : gettext("Connecting…"));
      setText(turn, teamsWaiting ? gettext("Waiting for players…") : waiting ? gettext("Waiting for an opponent…") : "");
      setAttr(root, "data-phase", waiting ? "waiting" : null);
      setAttr(root, "data-version", state.version);
      const players = (state.match && state.match.players) || [];
      const online = new Map((state.presence.players || []).map((p) => [p.name, p.connected]));
      [0, 1].forEach((i) => {
        const p = players[i];
        if (!seats[i]) return;
        const team = teamsWaiting && teamsWaiting[i];
        if (team && team.members.length) setText(seats[i].name, team.members.join(" · "));
        else if (p) setText(seats[i].name, p.name);
        else if (waiting) setText(seats[i].name, gettext("Open seat"));
        // An open seat has nobody to be online: no green dot.
        setAttr(seats[i].el, "data-connected", !p ? "empty" : online.get(p.name) === false ? "no" : "yes");
      });
      updateWaitingTeams(teamsWaiting);
      updateEnd(state, now); // a match cancelled before it started still gets its card
      return;
    }
    const active = activePlayer(state);
    const actions = myActions(state);
    const me = mySeat(state);
    const presence = new Map((state.presence.players || []).map((p) => [p.name, p.connected]));
    const teams = teamsOf(game, state.presence.players, state.me);
    updateTeams(teams);
    setAttr(root, "data-teams", teams ? "yes" : null);
    (game.players || []).forEach((p, i) => {
      const seat = seats[i];
      if (!seat) return;
      setText(seat.name, p.name);
      setText(seat.score, String(p.score));
      if (prevScores[i] !== null && prevScores[i] !== p.score) {
        seat.score.classList.remove("kz-bump");
        void seat.score.offsetWidth;
        seat.score.classList.add("kz-bump");
      }
      prevScores[i] = p.score;
      setAttr(seat.chip, "data-ball", p.cue_ball || (i === 0 ? "white1" : "white2"));
      setAttr(seat.chip, "title", p.cue_ball ? ballName(p.cue_ball) : gettext("cue ball not decided yet"));
      const team = teams && teams[i];
      const connected = team
        ? team.members.some((m) => m.connected)
        : presence.has(p.name)
          ? presence.get(p.name)
          : p.connected !== false;
      setAttr(seat.el, "data-connected", connected ? "yes" : "no");
      setAttr(seat.el, "data-active", game.phase !== "finished" && active === p.name ? "yes" : null);
      setAttr(seat.el, "data-me", i === me ? "yes" : null);
      setAttr(seat.el, "data-winner", game.winner === p.name ? "yes" : null);
      const timeouts = timeoutWords(state.clock, p.name);
      const mine = team ? gettext("your team") : gettext("you");
      setText(seat.note, [i === me ? mine : connected ? "" : gettext("away"), timeouts].filter(Boolean).join(" · "));
    });
    setText(phase, phaseName(game.phase));
    setAttr(root, "data-phase", game.phase);
    setAttr(root, "data-version", state.version);
    setAttr(root, "data-actions", actions.join(" "));
    setAttr(root, "data-animating", state.steps.length ? "yes" : "no");
    if (!state.steps.length) {
      setAttr(root, "data-balls", JSON.stringify(game.balls || {}));
      // The shown position, for browser tests and tools (no globals).
      if (game !== lastStateShown) {
        lastStateShown = game;
        setAttr(root, "data-state", JSON.stringify(game));
      }
      setAttr(root, "data-scores", (game.players || []).map((p) => p.score).join(":"));
    }

    let turnText = "";
    if (game.phase === "finished") {
      turnText = game.winner ? interpolate(gettext("%(player)s wins"), { player: game.winner }) : gettext("Match over");
    } else if (state.steps.length) turnText = gettext("Balls rolling…");
    else if (actions.length) turnText = interpolate(gettext("Your turn: %(action)s"), { action: actionWords(actions[0]) });
    else if (game.pending && game.pending.length) {
      const waiting = game.pending.filter(([n]) => n !== state.me);
      const side = waiting.length ? teamOfMember(teams, waiting[0][0]) : null;
      const who = side ? `${waiting[0][0]} (${side.name})` : waiting.length ? waiting[0][0] : "";
      turnText = waiting.length ? interpolate(gettext("%(player)s to %(action)s"), { player: who, action: actionWords(waiting[0][1]) }) : "";
    } else if (active) turnText = interpolate(gettext("%(player)s to play"), { player: active });
    setText(turn, turnText);
    setAttr(turn, "data-mine", actions.length ? "yes" : null);

    const clock = state.clock || {};
    const live = game.phase !== "finished";
    const shot = live ? shotClockLeft(state, clock, epoch) : null;
    const shotLeft = shot ? shot.left : null;
    setText(shotClock, shotLeft !== null ? formatClock(shotLeft) : ""); // its stopwatch: kaiza.css
    setAttr(shotClock, "data-urgent", shot && shot.running && shotLeft <= SHOT_CLOCK_WARNING_S ? "yes" : null);
    setAttr(shotClock, "data-running", shot ? (shot.running ? "yes" : "no") : null);
    setAttr(shotClock, "title", shot ? shotClockTooltip(clock, { standing: !shot.running && typeof clock.shot_deadline !== "number" }) : gettext("shot clock"));
    const matchLeft = live ? secondsLeft(state, clock.match_deadline, epoch) : null;
    setText(matchClock, matchClockText(game, matchLeft));
    const detailText = phaseDetail(game, { matchLeft });
    setText(detail, detailText);
    setAttr(detail, "data-tone", game.phase !== "play" || (matchLeft !== null && timeWarned(game, matchLeft)) ? "warn" : null);

    // A short message at each transition: the server's notice, else words for the new phase.
    if (state.announce !== lastAnnounce) {
      lastAnnounce = state.announce;
      announceAt = now;
      const a = lastAnnounce;
      const text = a ? said(a, "text") || phaseAnnouncement(a.key, game) : "";
      setText(notice, text);
      if (!text) lastAnnounce = null;
    }
    setHidden(notice, !lastAnnounce || now - announceAt > NOTICE_SHOW_MS || Boolean(state.steps.length));

    // The last verdict, in words, for a few seconds over the table (and for good in the shot list).
    if (state.lastVerdict !== lastVerdict) {
      lastVerdict = state.lastVerdict;
      verdictAt = now;
      if (lastVerdict) {
        const reason = said(lastVerdict, "reason");
        // Whose shot it was, unless the words say it; the lag that decides speaks of both players' lags.
        const both = lastVerdict.kind === "lag" && Boolean(lastVerdict.lag_winner || lastVerdict.relag);
        const who = lastVerdict.player && !both && !reason.includes(lastVerdict.player) ? `${lastVerdict.player}: ` : "";
        setText(verdict, who + (describeVerdict(lastVerdict) || (lastVerdict.kind === "lag" ? gettext("lag shot") : "")));
        setAttr(verdict, "data-tone", lastVerdict.foul ? "foul" : lastVerdict.scored ? "good" : "plain");
      }
    }
    setHidden(verdict, !lastVerdict || now - verdictAt > VERDICT_SHOW_MS);

    if (state.error !== lastError) {
      lastError = state.error;
      if (lastError) setText(toast, lastError.message || lastError.code);
    }
    setHidden(toast, !lastError || now - lastError.at > TOAST_SHOW_MS);

    if (state.history !== lastHistory) {
      lastHistory = state.history;
      renderHistory(state.history, state.historyTotal);
    }

    updateEnd(state, now);
  }

  /** The end-of-match card: the same result for players and spectators, once the balls stopped. */
  function updateEnd(state, now) {
    const card = state.steps.length ? null : endCard(state);
    setHidden(end, !card);
    setAttr(root, "data-ended", card ? "yes" : null);
    if (card && JSON.stringify(card) !== lastEnd) {
      lastEnd = JSON.stringify(card);
      const names = ((state.shown && state.shown.players) || []).map((p) => p.name);
      setNamedText(endTitle, card.title, names);
      setNamedText(endReason, card.reason, names);
      setNamedText(endScore, card.teams.length ? `${card.score} · ${card.teams.join(" – ")}` : card.score, names);
      setText(endRated, card.rated);
      setHidden(endRatedHelp, !card.ratedHelp);
      endRatings.replaceChildren(
        ...card.ratings.map((line) => {
          const li = document.createElement("li");
          li.textContent = line;
          return li;
        }),
      );
    }
    setHidden(rematchButton, !card || !canOfferRematch(state) || Boolean(state.rematch));
    const offer = state.rematch;
    setHidden(endRematch, !card || !offer);
    if (card && offer && endRematch.dataset.url !== offer.url) {
      endRematch.dataset.url = offer.url || "";
      const mine = offer.from === state.me;
      const text = document.createElement("span");
      text.textContent = mine
        ? gettext("Rematch offered: opening the new match…")
        : state.role === "player"
          ? interpolate(gettext("%(player)s offers a rematch."), { player: offer.from }) + " "
          : interpolate(gettext("%(player)s started a rematch."), { player: offer.from }) + " ";
      const parts = [text];
      if (offer.url && !mine) {
        const link = document.createElement("a");
        link.className = "kz-btn kz-btn-primary kz-rematch-go";
        link.href = offer.url;
        link.textContent = state.role === "player" ? gettext("Play the rematch") : gettext("Watch the rematch");
        parts.push(link);
      }
      endRematch.replaceChildren(...parts);
    }
    void now;
  }

  function renderHistory(history, total = 0) {
    // The snapshot keeps the newest entries of a long match; the count says how many there were.
    setText(shotCount, history.length ? String(Math.max(total, history.length)) : "");
    const frag = document.createDocumentFragment();
    for (let i = history.length - 1; i >= 0; i--) {
      const row = entryWords(history[i]);
      const li = document.createElement("li");
      li.className = "kz-shot";
      li.dataset.tone = row.tone;
      li.dataset.kind = row.kind;
      const who = document.createElement("span");
      who.className = "kz-shot-who";
      who.textContent = row.who;
      const what = document.createElement("span");
      what.className = "kz-shot-what";
      what.textContent = row.what;
      const pts = document.createElement("span");
      pts.className = "kz-shot-pts";
      pts.textContent = row.points;
      const why = document.createElement("span");
      why.className = "kz-shot-why";
      why.textContent = row.why;
      for (const id of row.rules) {
        const link = document.createElement("a");
        link.className = "kz-shot-rule";
        link.href = ruleUrl(id);
        link.target = "_blank";
        link.rel = "noopener";
        link.textContent = id;
        why.append(" ", link);
      }
      li.append(who, what, pts, why);
      frag.append(li);
    }
    shots.replaceChildren(frag);
  }

  return { update };
}
