// The wire messages of the client's sockets (docs/protocol.md), for tsc only: nothing here is served
// as code. game/realtime/outbound.py builds the server's messages; keep the two in step.

/** A position on the cloth, metres: [x, y]. */
export type Point = [number, number];

/** Words in every language players read, next to the English field they translate. */
export type Words = Partial<Record<"en" | "fi" | "ru", string>>;

/** A strike as the server takes it: angle in radians, speed in m/s, the tip's offsets. */
export interface Strike {
  angle: number;
  speed: number;
  side: number;
  height: number;
}

/** A call: the ball, the pocket, the cushions and the kiss or combination ball named. */
export interface Call {
  ball: string | null;
  pocket: string | null;
  object_cushions?: number;
  cue_cushions?: number;
  via?: string | null;
}

/** `state.constraints[name]`: what a player may do now (game/engine/rules/constraints.py). */
export interface Constraints {
  actions: string[];
  calls: Record<string, { via: string[]; pockets: Record<string, { ways: string[][]; why: string | null }> }>;
  not_callable: Record<string, string>;
  why_words: Record<string, Words>;
  placement: null | {
    ball: string;
    region: { cloth: [number, number, number, number]; kind: "home" | "opening"; [key: string]: unknown };
    avoid: Record<string, Point>;
    ball_radius: number;
    touch_tolerance: number;
  };
  lag: null | { speed: number };
  strike_limits: { min_speed_exclusive: number; max_speed: number; max_tip_offset: number; max_angle: number };
}

/** A seat of the match state. */
export interface PlayerState {
  name: string;
  cue_ball: string;
  score: number;
  connected: boolean;
  points_this_visit: number;
  best_break: number;
}

/** The match state: the engine snapshot plus `pending`, `abortable` and `constraints`. */
export interface GameState {
  format: number;
  phase: string;
  players: PlayerState[];
  turn: number;
  in_hand: string[];
  balls: Record<string, Point>;
  winner: string | null;
  finish_reason: string | null;
  pending: [string, string][];
  abortable: boolean;
  constraints: Record<string, Constraints>;
  timeouts: [number, number];
  teams?: [string[], string[]];
  at_table?: [number, number];
  [key: string]: unknown;
}

/** The `clock` object (docs/protocol.md, "The `clock` object"): epoch seconds. */
export interface Clock {
  shot_deadline?: number | null;
  grace_deadline?: number | null;
  grace_player?: string | null;
  match_deadline?: number | null;
  [key: string]: unknown;
}

/** A verdict: the reason in English and in every language, the rule ids. */
export interface Verdict {
  reason?: string;
  words?: Words;
  foul?: string | null;
  [key: string]: unknown;
}

/** One line of the shot list (the live event's `entry` and the snapshot's `history.entries`). */
export interface Entry {
  v: number;
  player: string | null;
  kind: "lag" | "shot" | "place" | "choice" | "timeout" | "notice" | "finish" | "abort";
  text: string;
  words?: Words;
  points: number;
  penalty: number;
  foul: string | null;
  scores: number[];
  call: Call | null;
  rules: string[];
}

/** The result of a match that is over. */
export interface Result {
  winner: string | null;
  loser: string | null;
  scores: number[];
  score_line?: string;
  how: string;
  text: string;
  words?: Words;
  rated: boolean;
  unrated_reason: string | null;
  unrated_words: Words | null;
  rating_changes: { player: string; before: number; after: number; delta: number }[];
}

/** `match` in `snapshot` and `started`. */
export interface MatchInfo {
  id: string;
  status: "open" | "active" | "finished" | "aborted";
  rated: boolean;
  club: string | null;
  players: ({ seat: number; name: string; rating: number; is_guest: boolean; is_bot: boolean; bot_level: number | null } | null)[];
  time_limit: number | null;
  shot_clock: number | null;
  winner: string | null;
  reason: string | null;
}

/** A chat message as the socket relays it. */
export interface ChatMessage {
  id: number;
  channel: "players" | "spectators";
  from: string;
  text: string;
  phrase: string;
  at: number;
}

/** A shot's motion: ball id -> its segments (a pocket drop is `["pocket", t, id]`). */
export type Segments = Record<string, (number | string)[][]>;

/** What every versioned event that changes the position carries. */
interface Changed {
  state: GameState | null;
  clock: Clock | null;
  entry?: Entry;
}

/** Server -> client on ws/match/<id>/: the versioned events (`v` set) and the ephemeral messages. */
export type MatchServerMessage =
  | {
      t: "snapshot";
      v: number;
      d: {
        state: GameState | null;
        match?: MatchInfo;
        you?: { name: string; role: string; seat: number | null };
        clock?: Clock;
        history?: { entries: Entry[]; total: number };
        result?: Result | null;
        chat?: ChatMessage[];
        last_shot?: { segments: Segments; started_at: number; player: string; verdict: Verdict };
      };
      repeat?: boolean;
    }
  | { t: "started"; v: number; d: Changed & { match: MatchInfo }; repeat?: boolean }
  | {
      t: "shot";
      v: number;
      d: Changed & {
        kind: "lag" | "shot";
        player: string;
        ack: number | null;
        call: Call | null;
        strike: Strike;
        segments: Segments;
        verdict: Verdict;
      };
      repeat?: boolean;
    }
  | {
      t: "placed";
      v: number;
      d: Changed & { player: string; ball: string; x: number; y: number; ack: number | null; verdict: Verdict };
      repeat?: boolean;
    }
  | { t: "choice"; v: number; d: Changed & { player: string; take: boolean; ack: number | null; verdict: Verdict }; repeat?: boolean }
  | {
      t: "timeout";
      v: number;
      d: Changed & { player: string; count: number; limit: number; ack: null; verdict: Verdict };
      repeat?: boolean;
    }
  | { t: "notice"; v: number; d: Changed & { kind: string; text: string; params?: object }; repeat?: boolean }
  | {
      t: "finished";
      v: number;
      d: Changed & {
        winner: string | null;
        reason: string | null;
        rating_changes: Result["rating_changes"] | null;
        result: Result | null;
        ack?: number | null;
        verdict?: Verdict;
      };
      repeat?: boolean;
    }
  | { t: "rematch"; d: { from: string; match_id: string; url: string } }
  | { t: "aim"; d: Strike & { player: string } }
  | { t: "presence"; d: { players: { name: string; seat: number; connected: boolean }[]; spectators: number } }
  | { t: "clock"; d: Clock }
  | { t: "chat"; d: ChatMessage }
  | { t: "chat_reported"; d: { id: number } }
  | { t: "error"; d: { code: string; message: string; ack?: number | null } }
  | { t: "pong"; d: {} }
  | { t: "analysis"; d: AnalysisProgress }
  | { t: "beat"; d: { v: number } };

/** The match's shot analysis as it runs (the `analysis` message, and the replay page's POST answer). */
export interface AnalysisProgress {
  status: "queued" | "running" | "done" | "failed";
  done: number;
  total: number;
}

/** Client -> server on ws/match/<id>/: `ack` on play inputs, `v` on the versioned ones. */
export type MatchClientMessage =
  | { t: "hello"; d: { v: number } }
  | { t: "ping"; d?: {} }
  | { t: "aim"; d: Strike }
  | { t: "lag"; ack: number; v: number; d: { strike: Strike } }
  | { t: "choose_break"; ack: number; v: number; d: { take: boolean } }
  | { t: "place"; ack: number; v: number; d: { ball: string; x: number; y: number } }
  | { t: "shoot"; ack: number; v: number; d: { call: Call | null; strike: Strike } }
  | { t: "resign" | "abort" | "rematch" | "claim_timeout"; ack: number; d?: {} }
  | { t: "chat"; d: { text?: string; phrase?: string; channel?: "players" | "spectators" } }
  | { t: "chat_report"; d: { id: number } };

/** An open match of the lobby's table. */
export interface OpenMatch {
  id: string;
  url: string;
  creator: string;
  rating: number | null;
  creator_is_guest: boolean;
  rated: boolean;
  time_limit: number | null;
  shot_clock: number | null;
  club: string | null;
  created_at: string;
  team_size: number | null;
  open_places: number | null;
}

/** Server -> client on ws/lobby/. */
export type LobbyServerMessage =
  | { t: "matches"; d: { matches: OpenMatch[] } }
  | { t: "seeking"; d: { rated: boolean; time_limit: number | null; waited: number; window: number } }
  | { t: "paired"; d: { match_id: string; url: string } }
  | { t: "seek_ended"; d: { reason: string } }
  | { t: "pong"; d: {} }
  | { t: "error"; d: { code: string; message: string } };

/** Client -> server on ws/lobby/. */
export type LobbyClientMessage =
  | { t: "ping"; d?: {} }
  | { t: "seek"; d: { rated: boolean; time_limit: number | null } }
  | { t: "seek_cancel"; d?: {} };

/** Server -> client on ws/tournament/<id>/: what changed, the page fetches the rest. */
export interface TournamentMessage {
  t: "tournament";
  d: { match?: string | null; scores?: number[] | null; event?: string | null; reload?: boolean };
}

declare global {
  interface Window {
    /** Safari before 14.1: the Web Audio API under its prefixed name (ui/sound.js). */
    webkitAudioContext?: typeof AudioContext;
  }
}
