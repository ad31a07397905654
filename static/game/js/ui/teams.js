// @ts-check
/**
 * Team matches, for the HUD: each team's name, score and members in playing order, read
 * off the server's state (`teams`, `at_table`, `pending`, `players`); no rule is worked out here.
 * The member at the table of the side to play is `playing`; the other team's `at_table` member plays
 * its next visit. Pure: state in, a plain description out.
 */

import { gettext, interpolate } from "../i18n.js";

/**
 * @param {object|null} game the shown state (the server's snapshot with `pending`)
 * @param {Array<{name: string, connected: boolean}>} presence the `presence` players
 * @param {string} me my name in this match
 * @returns {null|Array<{name: string, score: number, toPlay: boolean, members: Array<object>}>}
 */
export function teamsOf(game, presence = [], me = "") {
  if (!game || !Array.isArray(game.teams) || !Array.isArray(game.players)) return null;
  const online = new Map((presence || []).map((p) => [p.name, p.connected]));
  const at = game.at_table || [0, 0];
  const acting = new Set((game.pending || []).map(([name]) => name));
  const live = game.phase !== "finished";
  return game.teams.map((members, side) => {
    const toPlay = live && members.some((name) => acting.has(name));
    return {
      name: game.players[side] ? game.players[side].name : "",
      score: game.players[side] ? game.players[side].score : 0,
      toPlay,
      members: members.map((name, i) => ({
        name,
        atTable: live && i === at[side],
        playing: live && acting.has(name),
        connected: online.get(name) !== false,
        me: name === me,
      })),
    };
  });
}

/** The team a member plays for, or null. */
export function teamOfMember(teams, name) {
  if (!teams) return null;
  return teams.find((t) => t.members.some((m) => m.name === name)) || null;
}

/** A member's label in the team line: who plays now (▶), who plays the team's next visit (next). */
export function memberLabel(member, team) {
  if (member.playing) return `▶ ${member.name}`;
  if (member.atTable && !team.toPlay) return interpolate(gettext("%(name)s (next)"), { name: member.name });
  return member.name;
}

/**
 * An open team match, before the start: each team's seated members (from `presence`, which lists
 * every member with his team as `seat`) and its open places (the match frame's `teams.size`), so a
 * waiting page follows the joins without a reload.
 * @returns {null|Array<{members: string[], open: number}>}
 */
export function waitingTeams(match, presence = []) {
  if (!match || !match.teams || !match.teams.size) return null;
  const size = match.teams.size;
  return [0, 1].map((side) => {
    const members = (presence || []).filter((p) => p.seat === side).map((p) => p.name);
    return { members, open: Math.max(0, size - members.length) };
  });
}
