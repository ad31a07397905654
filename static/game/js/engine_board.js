// @ts-check
/**
 * The analysis board's list: the engine's answer for a practice position, as the
 * server sent it (game/site/selectors/engine_board.py), turned into what the page shows. Pure: words
 * come from the page (`words(key)`), numbers from the answer; nothing here judges a shot, the server's
 * engine did. The practice page (practice.js) asks, draws these items and replays a shot on demand.
 */

/**
 * The page's sentence with its `{name}` places filled; a name not given stays as written. Braces, not
 * `%(name)s`: a template's {% translate %} looks a string with a % up with the % doubled, so a `%(name)s`
 * sentence would never find its translation.
 */
export function fill(words, values) {
  return String(words).replace(/\{(\w+)\}/g, (whole, name) =>
    Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : whole,
  );
}

/** "2.5" for 2.46: expected points with one decimal, never "-0.0". */
export function formatPoints(points) {
  const value = Math.round(Number(points) * 10) / 10;
  return (Object.is(value, -0) ? 0 : value).toFixed(1);
}

/** "62%" for 0.6167. */
export function formatShare(share) {
  return `${Math.round(Number(share) * 100)}%`;
}

/**
 * The items of the list, best first: each shot's sentence (what it does played exactly), its line of
 * figures in the page's words, and the call and strike to replay it.
 * @param {{shots: Array<{words: string, expected_points: number, success: number, call: object, strike: object}>}} reply
 * @param {(key: string) => string} words
 */
export function boardItems(reply, words) {
  return (reply.shots || []).map((shot, index) => ({
    rank: index + 1,
    sentence: shot.words,
    line: fill(words("line"), { points: formatPoints(shot.expected_points), success: formatShare(shot.success) }),
    shoot: { call: shot.call, strike: shot.strike },
  }));
}

/**
 * The page's words for a refused question: its own sentence for a known code, else the server's (the
 * engine's queue, `engine_busy` with how many are ahead, and `question_pending` are said by the server
 * in the reader's language: the page has no words of its own for them).
 */
export function refusalWords(code, message, words) {
  return words(code) || message || words("refused");
}
