// @ts-check
/**
 * The aim preview, the browser's mirror of the engine's game/engine/physics/aim.py: where a strike first
 * touches something, and where the object ball goes from there, with the engine's own formulas (the cue's
 * launch with squirt, the cloth's closed-form motion, the contact times, the frictional ball-ball impulse
 * that makes throw, the rubber's impulse at the cushions and jaws) and its event loop, stepped only until
 * the balls the line follows have met something, as aim.py steps the engine's: a ball frozen to a cushion
 * rolls on along it, a cluster is pushed at the impact. The shot itself is the server's
 * (docs/decisions/aim-preview.md).
 *
 * Each function here has its Python twin, named in its comment; tests/engine/test_aim_preview.py runs this
 * module under node on seeded strikes and compares it with aim.py, and aim.py with the engine's shots.
 * Pure functions, metres, seconds, radians. `table` is the page's table (TableSpec.as_dict) with its
 * `physics` (aim.py physics_for_client).
 */

const INF = Infinity;
const TWO_PI_3 = (2 * Math.PI) / 3;

// --- quartic.py -----------------------------------------------------------------------------------------

const cbrt = (x) => Math.sign(x) * Math.pow(Math.abs(x), 1 / 3);

/** quartic.cubic_roots_unit: real roots in (0, 1) of a s^3 + b s^2 + c s + d, sorted. */
function cubicRootsUnit(a, b, c, d) {
  const scale = Math.max(Math.abs(a), Math.abs(b), Math.abs(c), Math.abs(d));
  if (scale === 0) return [];
  const eps = 1e-12 * scale;
  let roots;
  if (Math.abs(a) > eps) {
    const B = b / a;
    const C = c / a;
    const D = d / a;
    const p = C - (B * B) / 3;
    const q = (2 * B * B * B) / 27 - (B * C) / 3 + D;
    const shift = -B / 3;
    const disc = (q * q) / 4 + (p * p * p) / 27;
    if (disc > 0) {
      const sq = Math.sqrt(disc);
      roots = [cbrt(-q / 2 + sq) + cbrt(-q / 2 - sq) + shift];
    } else if (p === 0) {
      roots = [shift];
    } else {
      const r = Math.sqrt(-p / 3);
      let arg = -q / (2 * r * r * r);
      arg = arg > 1 ? 1 : arg < -1 ? -1 : arg;
      const phi = Math.acos(arg) / 3;
      roots = [0, 1, 2].map((k) => 2 * r * Math.cos(phi - k * TWO_PI_3) + shift);
    }
    roots = roots.map((s0) => {
      let s = s0;
      for (let k = 0; k < 2; k++) {
        const fp = (3 * a * s + 2 * b) * s + c;
        if (fp === 0) break;
        s -= (((a * s + b) * s + c) * s + d) / fp;
      }
      return s;
    });
  } else if (Math.abs(b) > eps) {
    const disc = c * c - 4 * b * d;
    if (disc < 0) return [];
    const sq = Math.sqrt(disc);
    const qq = -0.5 * (c + (c < 0 || Object.is(c, -0) ? -sq : sq));
    roots = [qq / b];
    if (qq !== 0) roots.push(d / qq);
  } else if (Math.abs(c) > eps) {
    roots = [-d / c];
  } else {
    return [];
  }
  return roots.filter((s) => s > 0 && s < 1).sort((x, y) => x - y);
}

/** quartic.earliest_contact4: first t in [0, tMax] where the quartic is <= 0 and decreasing. */
function earliestContact4(c4, c3, c2, c1, c0, tMax, deep = INF, graze = 0) {
  if (tMax < 0) return INF;
  const T = tMax;
  const crit = T > 0 ? cubicRootsUnit(4 * c4 * T * T * T, 3 * c3 * T * T, 2 * c2 * T, c1) : [];
  let p = 0;
  let fp = c0;
  for (const s of [...crit, 1]) {
    const q = s * T;
    const fq = (((c4 * q + c3) * q + c2) * q + c1) * q + c0;
    const m = 0.5 * (p + q);
    const dm = ((4 * c4 * m + 3 * c3) * m + 2 * c2) * m + c1;
    const decreasing = q > p ? dm < 0 : c1 < 0;
    if (decreasing && (fq <= -graze || (fq <= 0 && s === 1) || fp <= -graze)) {
      if (fp <= 0) {
        if (fp >= -deep) return p;
      } else if (fq <= 0) {
        return bracket4(c4, c3, c2, c1, c0, p, fp, q, fq);
      }
    }
    p = q;
    fp = fq;
  }
  return INF;
}

/** quartic._bracket4 */
function bracket4(c4, c3, c2, c1, c0, lo0, flo, hi0, fhi) {
  let lo = lo0;
  let hi = hi0;
  let t = lo + (flo * (hi - lo)) / (flo - fhi);
  for (let k = 0; k < 60; k++) {
    const ft = (((c4 * t + c3) * t + c2) * t + c1) * t + c0;
    if (ft > 0) lo = t;
    else if (ft < 0) hi = t;
    else return t;
    if (hi - lo <= 1e-13 * (1 + hi)) break;
    const d = ((4 * c4 * t + 3 * c3) * t + 2 * c2) * t + c1;
    const nt = d !== 0 ? t - ft / d : lo;
    t = lo < nt && nt < hi ? nt : 0.5 * (lo + hi);
  }
  return lo;
}

/** quartic.earliest_contact2 */
function earliestContact2(c2, c1, c0, tMax, deep = INF, graze = 0) {
  if (tMax < 0) return INF;
  let pieces = [tMax];
  if (c2 !== 0) {
    const tc = -c1 / (2 * c2);
    if (tc > 0 && tc < tMax) pieces = [tc, tMax];
  }
  let p = 0;
  let fp = c0;
  for (const q of pieces) {
    const fq = (c2 * q + c1) * q + c0;
    const m = 0.5 * (p + q);
    const decreasing = 2 * c2 * m + c1 < 0;
    if (decreasing && (fq <= -graze || (fq <= 0 && q === tMax) || fp <= -graze)) {
      if (fp <= 0) {
        if (fp >= -deep) return p;
      } else if (fq <= 0) {
        return root2(c2, c1, c0, p, fp, q, fq);
      }
    }
    p = q;
    fp = fq;
  }
  return INF;
}

/** quartic._root2 */
function root2(c2, c1, c0, lo0, flo, hi0, fhi) {
  let lo = lo0;
  let hi = hi0;
  let t;
  if (c2 === 0) {
    t = -c0 / c1;
  } else {
    let disc = c1 * c1 - 4 * c2 * c0;
    disc = disc > 0 ? disc : 0;
    const root = Math.sqrt(disc);
    const qq = -0.5 * (c1 + (c1 < 0 || Object.is(c1, -0) ? -root : root));
    const r1 = qq / c2;
    const r2 = qq !== 0 ? c0 / qq : r1;
    t = lo <= r1 && r1 <= hi ? r1 : r2;
  }
  if (!(lo <= t && t <= hi)) t = lo + (flo * (hi - lo)) / (flo - fhi);
  for (let k = 0; k < 60; k++) {
    const ft = (c2 * t + c1) * t + c0;
    if (ft > 0) lo = t;
    else if (ft < 0) hi = t;
    else return t;
    if (hi - lo <= 1e-13 * (1 + hi)) break;
    const d = 2 * c2 * t + c1;
    const nt = d !== 0 ? t - ft / d : lo;
    t = lo < nt && nt < hi ? nt : 0.5 * (lo + hi);
  }
  return lo;
}

// --- geometry.py ----------------------------------------------------------------------------------------

const CUSHION = 0;
const FACING = 1;
const CAPTURE = 2;

function makeLine(kind, where, a, b, normal, offset) {
  let dx = b[0] - a[0];
  let dy = b[1] - a[1];
  const length = Math.sqrt(dx * dx + dy * dy);
  dx /= length;
  dy /= length;
  const [nx, ny] = normal;
  const ox = nx * offset;
  const oy = ny * offset;
  const xs = [a[0] + ox, b[0] + ox];
  const ys = [a[1] + oy, b[1] + oy];
  const eps = 1e-6;
  const box = [Math.min(...xs) - eps, Math.max(...xs) + eps, Math.min(...ys) - eps, Math.max(...ys) + eps];
  return { kind, where, ax: a[0], ay: a[1], nx, ny, dx, dy, length, offset, box };
}

const geometries = new WeakMap();

/** geometry.TableGeometry from the page's table: cushions, facings, capture lines, then jaw tips. */
export function geometryOf(table) {
  let geo = geometries.get(table);
  if (geo) return geo;
  const R = table.ball_radius;
  const L = table.length;
  const W = table.width;
  const sinT = Math.min(Math.max(table.cushion_height / R - 1, -1), 1);
  const lines = [];
  for (const c of table.cushions) lines.push(makeLine(CUSHION, c.id, c.a, c.b, c.normal, R));
  for (const f of table.facings) lines.push(makeLine(FACING, f.pocket, f.a, f.b, f.normal, R));
  for (const [id, p] of Object.entries(table.pockets)) {
    lines.push(makeLine(CAPTURE, id, p.capture[0], p.capture[1], [-p.axis[0], -p.axis[1]], 0));
  }
  const rounds = table.jaws.map((j) => {
    const reach = R + j.radius;
    const [cx, cy] = j.center;
    return { where: j.pocket, cx, cy, reach, box: [cx - reach, cx + reach, cy - reach, cy + reach] };
  });
  const mouths = Object.entries(table.pockets).map(([id, p]) => ({
    pocket: id,
    x: 0.5 * (p.mouth[0][0] + p.mouth[1][0]),
    y: 0.5 * (p.mouth[0][1] + p.mouth[1][1]),
    axisX: p.axis[0],
    axisY: p.axis[1],
  }));
  geo = { R, L, W, sinT, cosT: Math.pow(1 - sinT * sinT, 0.5), inner: [R, L - R, R, W - R], lines, rounds, mouths };
  geometries.set(table, geo);
  return geo;
}

// --- motion.py ------------------------------------------------------------------------------------------

const STATIONARY = 0;
const SPINNING = 1;
const SLIDING = 2;
const ROLLING = 3;
const EPS_V = 1e-7;
const EPS_W = 1e-5;

/** motion.extent: min and max of p + v t + a t^2 / 2 over [0, T]. */
function extent(p, v, a, T) {
  const end = p + (v + 0.5 * a * T) * T;
  let lo = p <= end ? p : end;
  let hi = p <= end ? end : p;
  if (a !== 0) {
    const tc = -v / a;
    if (tc > 0 && tc < T) {
      const mid = p + 0.5 * v * tc;
      if (mid < lo) lo = mid;
      else if (mid > hi) hi = mid;
    }
  }
  return [lo, hi];
}

/** motion.MovingBall: one ball's polynomial since t0, its spin, and when its state ends. */
class MovingBall {
  constructor(index, id, R, physics) {
    this.index = index;
    this.id = id;
    this.R = R;
    this.spinDecel = physics.spin_decel;
    this.usg = physics.u_s * physics.g;
    this.urg = physics.u_r * physics.g;
    this.state = STATIONARY;
    this.t0 = 0;
    this.x = this.y = this.vx = this.vy = this.ax = this.ay = 0;
    this.wx = this.wy = this.wz = this.awx = this.awy = 0;
    this.tEnd = INF;
    this.bx0 = this.bx1 = this.by0 = this.by1 = 0;
    /** @type {number[][]} */
    this.segments = [];
  }

  position(t) {
    const dt = t - this.t0;
    return [this.x + (this.vx + 0.5 * this.ax * dt) * dt, this.y + (this.vy + 0.5 * this.ay * dt) * dt];
  }

  kinematics(t) {
    const dt = t - this.t0;
    const vx = this.vx + this.ax * dt;
    const vy = this.vy + this.ay * dt;
    const x = this.x + (this.vx + 0.5 * this.ax * dt) * dt;
    const y = this.y + (this.vy + 0.5 * this.ay * dt) * dt;
    let wx = 0;
    let wy = 0;
    if (this.state === SLIDING) {
      wx = this.wx + this.awx * dt;
      wy = this.wy + this.awy * dt;
    } else if (this.state === ROLLING) {
      wx = -vy / this.R;
      wy = vx / this.R;
    }
    return [x, y, vx, vy, wx, wy, this.wzAt(t)];
  }

  wzAt(t) {
    const wz = this.wz;
    if (wz === 0) return 0;
    const left = Math.abs(wz) - this.spinDecel * (t - this.t0);
    return left > 0 ? (wz < 0 ? -left : left) : 0;
  }

  setMotion(t, x, y, vx0, vy0, wx, wy, wz0) {
    let vx = vx0;
    let vy = vy0;
    let wz = wz0;
    const R = this.R;
    const ux = vx - R * wy;
    const uy = vy + R * wx;
    const slip = Math.hypot(ux, uy);
    const speed = Math.hypot(vx, vy);
    if (Math.abs(wz) <= EPS_W) wz = 0;
    let state;
    let ax;
    let ay;
    let tEnd;
    if (slip > EPS_V) {
      state = SLIDING;
      const uxh = ux / slip;
      const uyh = uy / slip;
      ax = -this.usg * uxh;
      ay = -this.usg * uyh;
      const k = (2.5 * this.usg) / R;
      this.awx = -k * uyh;
      this.awy = k * uxh;
      this.wx = wx;
      this.wy = wy;
      tEnd = t + slip / (3.5 * this.usg);
    } else if (speed > EPS_V) {
      state = ROLLING;
      ax = (-this.urg * vx) / speed;
      ay = (-this.urg * vy) / speed;
      this.wx = -vy / R;
      this.wy = vx / R;
      this.awx = this.awy = 0;
      tEnd = t + speed / this.urg;
    } else {
      vx = vy = ax = ay = 0;
      this.wx = this.wy = this.awx = this.awy = 0;
      if (wz !== 0) {
        state = SPINNING;
        tEnd = t + Math.abs(wz) / this.spinDecel;
      } else {
        state = STATIONARY;
        tEnd = INF;
      }
    }
    const previous = this.state;
    this.state = state;
    this.t0 = t;
    this.x = x;
    this.y = y;
    this.vx = vx;
    this.vy = vy;
    this.ax = ax;
    this.ay = ay;
    this.wz = wz;
    this.tEnd = tEnd;
    const segs = this.segments;
    const still = state <= SPINNING;
    const last = segs[segs.length - 1];
    if (!(still && previous <= SPINNING && last && last[1] === x && last[2] === y)) segs.push([t, x, y, vx, vy, ax, ay]);
    if (still) {
      this.bx0 = this.bx1 = x;
      this.by0 = this.by1 = y;
    } else {
      const T = tEnd - t;
      [this.bx0, this.bx1] = extent(x, vx, ax, T);
      [this.by0, this.by1] = extent(y, vy, ay, T);
    }
    return state;
  }
}

// --- events.py ------------------------------------------------------------------------------------------

const LINE_DEEP = 0.005;
const GRAZE = 1e-9;
const GRAZE2 = 2e-9;
const EXTENT_SLACK = 1e-9;

/** events.pair_time: absolute time of the next approaching contact of two balls, or Infinity. */
function pairTime(b1, b2, now, D) {
  if (b1.state <= 1 && b2.state <= 1) return INF;
  const tEnd = b1.tEnd < b2.tEnd ? b1.tEnd : b2.tEnd;
  if (b1.bx0 - D > b2.bx1 || b2.bx0 - D > b1.bx1 || b1.by0 - D > b2.by1 || b2.by0 - D > b1.by1) return INF;
  let T = tEnd - now;
  if (T < 0) T = 0;
  const d1 = now - b1.t0;
  const d2 = now - b2.t0;
  const v1x = b1.vx + b1.ax * d1;
  const v1y = b1.vy + b1.ay * d1;
  const v2x = b2.vx + b2.ax * d2;
  const v2y = b2.vy + b2.ay * d2;
  const cx = b2.x + (b2.vx + 0.5 * b2.ax * d2) * d2 - (b1.x + (b1.vx + 0.5 * b1.ax * d1) * d1);
  const cy = b2.y + (b2.vy + 0.5 * b2.ay * d2) * d2 - (b1.y + (b1.vy + 0.5 * b1.ay * d1) * d1);
  const bx = v2x - v1x;
  const by = v2y - v1y;
  const ax = 0.5 * (b2.ax - b1.ax);
  const ay = 0.5 * (b2.ay - b1.ay);
  const c0 = cx * cx + cy * cy - D * D;
  if (c0 > 0) {
    const gap = Math.sqrt(cx * cx + cy * cy) - D;
    const reach = (Math.sqrt(bx * bx + by * by) + Math.sqrt(ax * ax + ay * ay) * T) * T;
    if (gap > reach) return INF;
  }
  const c1 = 2 * (bx * cx + by * cy);
  const c2 = bx * bx + by * by + 2 * (ax * cx + ay * cy);
  const c3 = 2 * (ax * bx + ay * by);
  const c4 = ax * ax + ay * ay;
  const t = earliestContact4(c4, c3, c2, c1, c0, T, INF, D * GRAZE2);
  return t !== INF ? now + t : INF;
}

/** events.table_time: [absolute time, feature index, kind] of the next table contact (kind 3: a jaw tip). */
function tableTime(b, now, geo) {
  if (b.state <= 1) return [INF, -1, null];
  const [x0, x1, y0, y1] = geo.inner;
  const { bx0, bx1, by0, by1 } = b;
  if (bx0 > x0 && bx1 < x1 && by0 > y0 && by1 < y1) return [INF, -1, null];
  let T = b.tEnd - now;
  if (T < 0) T = 0;
  const d = now - b.t0;
  const { ax, ay } = b;
  const vx = b.vx + ax * d;
  const vy = b.vy + ay * d;
  const px = b.x + (b.vx + 0.5 * ax * d) * d;
  const py = b.y + (b.vy + 0.5 * ay * d) * d;
  let best = INF;
  let bestIndex = -1;
  let bestKind = null;
  let index = 0;
  for (const line of geo.lines) {
    const box = line.box;
    if (bx0 > box[1] || bx1 < box[0] || by0 > box[3] || by1 < box[2]) {
      index += 1;
      continue;
    }
    const c0 = line.nx * (px - line.ax) + line.ny * (py - line.ay) - line.offset;
    const c1 = line.nx * vx + line.ny * vy;
    const c2 = 0.5 * (line.nx * ax + line.ny * ay);
    const t = earliestContact2(c2, c1, c0, T, LINE_DEEP, GRAZE);
    if (t < best) {
      const qx = px + (vx + 0.5 * ax * t) * t - line.ax;
      const qy = py + (vy + 0.5 * ay * t) * t - line.ay;
      const s = qx * line.dx + qy * line.dy;
      if (-EXTENT_SLACK <= s && s <= line.length + EXTENT_SLACK) {
        best = t;
        bestIndex = index;
        bestKind = line.kind;
      }
    }
    index += 1;
  }
  for (const rnd of geo.rounds) {
    const box = rnd.box;
    if (bx0 > box[1] || bx1 < box[0] || by0 > box[3] || by1 < box[2]) {
      index += 1;
      continue;
    }
    const qx = px - rnd.cx;
    const qy = py - rnd.cy;
    const hx = 0.5 * ax;
    const hy = 0.5 * ay;
    const c0 = qx * qx + qy * qy - rnd.reach * rnd.reach;
    const c1 = 2 * (vx * qx + vy * qy);
    const c2 = vx * vx + vy * vy + 2 * (hx * qx + hy * qy);
    const c3 = 2 * (hx * vx + hy * vy);
    const c4 = hx * hx + hy * hy;
    const t = earliestContact4(c4, c3, c2, c1, c0, T, INF, rnd.reach * GRAZE2);
    if (t < best) {
      best = t;
      bestIndex = index;
      bestKind = 3;
    }
    index += 1;
  }
  if (bestIndex < 0) return [INF, -1, null];
  return [now + best, bestIndex, bestKind];
}

// --- collisions/ and cue.py -----------------------------------------------------------------------------

/** collisions/ball_ball.resolve_ball_ball: new [vx, vy, wx, wy, wz] of both balls along unit normal n. */
function resolveBallBall(nx, ny, v1, w1, v2, w2, R, ph) {
  const [v1x, v1y] = v1;
  const [v2x, v2y] = v2;
  let [w1x, w1y, w1z] = w1;
  let [w2x, w2y, w2z] = w2;
  const dvx = v1x - v2x;
  const dvy = v1y - v2y;
  const vn = dvx * nx + dvy * ny;
  if (vn <= 0) return [[v1x, v1y, w1x, w1y, w1z], [v2x, v2y, w2x, w2y, w2z]];
  const j = 0.5 * (1 + ph.e_b) * vn;
  const sx = w1x + w2x;
  const sy = w1y + w2y;
  const sz = w1z + w2z;
  const ux = dvx + R * (-sz * ny);
  const uy = dvy + R * (sz * nx);
  const uz = R * (sx * ny - sy * nx);
  const un = ux * nx + uy * ny;
  const tx = ux - un * nx;
  const ty = uy - un * ny;
  const tz = uz;
  const slip = Math.sqrt(tx * tx + ty * ty + tz * tz);
  let nv1x = v1x - j * nx;
  let nv1y = v1y - j * ny;
  let nv2x = v2x + j * nx;
  let nv2y = v2y + j * ny;
  if (slip > 0) {
    const ub = ph.u_b_a + ph.u_b_b * Math.exp(-ph.u_b_c * slip);
    const jt = Math.min(ub * j, slip / 7);
    const fx = (-jt * tx) / slip;
    const fy = (-jt * ty) / slip;
    const fz = (-jt * tz) / slip;
    nv1x += fx;
    nv1y += fy;
    nv2x -= fx;
    nv2y -= fy;
    const k = 2.5 / R;
    const dwx = k * (ny * fz);
    const dwy = k * (-nx * fz);
    const dwz = k * (nx * fy - ny * fx);
    w1x += dwx;
    w1y += dwy;
    w1z += dwz;
    w2x += dwx;
    w2y += dwy;
    w2z += dwz;
  }
  return [[nv1x, nv1y, w1x, w1y, w1z], [nv2x, nv2y, w2x, w2y, w2z]];
}

/** collisions/cushion.resolve_cushion: new [vx, vy, wx, wy, wz] of a ball hitting rubber toward (kx, ky). */
function resolveCushion(kx, ky, v, w, R, sinT, cosT, eC, fC) {
  const [vx, vy] = v;
  let [wx, wy, wz] = w;
  const Kx = kx * cosT;
  const Ky = ky * cosT;
  const Kz = sinT;
  const rx = R * Kx;
  const ry = R * Ky;
  const rz = R * Kz;
  const ux = vx + (wy * rz - wz * ry);
  const uy = vy + (wz * rx - wx * rz);
  const uz = wx * ry - wy * rx;
  const c = ux * Kx + uy * Ky + uz * Kz;
  if (c <= 0) return [vx, vy, wx, wy, wz];
  const pn = (1 + eC) * c;
  const tx = ux - c * Kx;
  const ty = uy - c * Ky;
  const tz = uz - c * Kz;
  const slip = Math.sqrt(tx * tx + ty * ty + tz * tz);
  const stick = slip * (2 / 7);
  let px;
  let py;
  let pz;
  if (slip === 0) {
    px = -pn * Kx;
    py = -pn * Ky;
    pz = -pn * Kz;
  } else {
    const pt = stick <= fC * pn ? stick : fC * pn;
    px = -pn * Kx - (pt * tx) / slip;
    py = -pn * Ky - (pt * ty) / slip;
    pz = -pn * Kz - (pt * tz) / slip;
  }
  const k = 2.5 / (R * R);
  wx += k * (ry * pz - rz * py);
  wy += k * (rz * px - rx * pz);
  wz += k * (rx * py - ry * px);
  return [vx + px, vy + py, wx, wy, wz];
}

/** cue.launch: [vx, vy, wx, wy, wz] of the struck ball (TP A-30, squirt TP A-31). */
export function launch(speed, angle, side, height, R, ph) {
  const ex = Math.cos(angle);
  const ey = Math.sin(angle);
  const m = ph.ball_mass;
  const v = ((1 + ph.tip_restitution) * speed) / (1 + m / ph.cue_mass + 2.5 * (side * side + height * height));
  const k = (2.5 * v) / R;
  const wz = k * side;
  const wx = -k * height * ey;
  const wy = k * height * ex;
  const s = side;
  const squirt = Math.atan2(2.5 * s * Math.sqrt(1 - s * s), 1 + m / ph.cue_end_mass + 2.5 * (1 - s * s));
  const ca = Math.cos(squirt);
  const sa = Math.sin(squirt);
  const dx = ex * ca - ey * sa;
  const dy = ex * sa + ey * ca;
  return [v * dx, v * dy, wx, wy, wz];
}

// --- event_loop.py's shared geometry --------------------------------------------------------------------

/** event_loop.settled */
function settled(b, t) {
  const R = b.R;
  let [x, y, vx, vy, wx, wy, wz] = b.kinematics(t);
  if (b.state === SLIDING) {
    wx = -vy / R;
    wy = vx / R;
  } else if (b.state === ROLLING) {
    vx = vy = wx = wy = 0;
  } else {
    wz = 0;
  }
  return [x, y, vx, vy, wx, wy, wz];
}

/** event_loop.over_hole */
function overHole(geo, x, y) {
  const [ix0, ix1, iy0, iy1] = geo.inner;
  if (ix0 <= x && x <= ix1 && iy0 <= y && y <= iy1) return null;
  let mouth = null;
  let best = INF;
  for (const m of geo.mouths) {
    const d = (m.x - x) ** 2 + (m.y - y) ** 2;
    if (d < best) {
      best = d;
      mouth = m;
    }
  }
  return (x - mouth.x) * mouth.axisX + (y - mouth.y) * mouth.axisY > 0 ? mouth.pocket : null;
}

/** event_loop.line_contact */
function lineContact(line, x0, y0, R, sep) {
  let x = x0;
  let y = y0;
  const kx = -line.nx;
  const ky = -line.ny;
  const px = x + R * kx;
  const py = y + R * ky;
  const gap = line.nx * (x - line.ax) + line.ny * (y - line.ay) - line.offset;
  if (gap < sep) {
    x += (sep - gap) * line.nx;
    y += (sep - gap) * line.ny;
  }
  return [x, y, kx, ky, px, py];
}

/** event_loop.tip_contact */
function tipContact(tip, x0, y0, R, sep) {
  let x = x0;
  let y = y0;
  const dx = tip.cx - x;
  const dy = tip.cy - y;
  const dist = Math.hypot(dx, dy);
  const kx = dx / dist;
  const ky = dy / dist;
  const px = x + R * kx;
  const py = y + R * ky;
  if (dist < tip.reach + sep) {
    x -= (tip.reach + sep - dist) * kx;
    y -= (tip.reach + sep - dist) * ky;
  }
  return [x, y, kx, ky, px, py];
}

/** event_loop.ball_contact: both balls' [x, y, vx, vy, wx, wy, wz] after their impulse, a micrometre apart,
 * the contact point, and whether `b` is the one that moved into the other.
 * @returns {[number[], number[], number[], boolean]} */
function ballContact(b, b2, t, ph) {
  const R = b.R;
  const D = 2 * R;
  const sep = ph.separation;
  let [x1, y1, v1x, v1y, w1x, w1y, w1z] = b.kinematics(t);
  let [x2, y2, v2x, v2y, w2x, w2y, w2z] = b2.kinematics(t);
  let dx = x2 - x1;
  let dy = y2 - y1;
  let dist = Math.hypot(dx, dy);
  if (dist === 0) {
    dx = 1;
    dy = 0;
    dist = 1;
  }
  const nx = dx / dist;
  const ny = dy / dist;
  const [a1, a2] = resolveBallBall(nx, ny, [v1x, v1y], [w1x, w1y, w1z], [v2x, v2y], [w2x, w2y, w2z], R, ph);
  const point = [x1 + 0.5 * dist * nx, y1 + 0.5 * dist * ny];
  if (dist < D + sep) {
    const push = 0.5 * (D + sep - dist);
    x1 -= push * nx;
    y1 -= push * ny;
    x2 += push * nx;
    y2 += push * ny;
  }
  const firstLeads = v1x * nx + v1y * ny >= -(v2x * nx + v2y * ny);
  return [[x1, y1, ...a1], [x2, y2, ...a2], point, firstLeads];
}

// --- table.py frozen_cushion, simulate.py's start of a shot -------------------------------------------------

/** table.TableSpec.frozen_cushion: the id of the cushion a centre at (x, y) is frozen to (K-6.2), or null. */
function frozenCushion(table, x, y) {
  const reach = table.ball_radius + table.frozen_tolerance;
  if (reach < x && x < table.length - reach && reach < y && y < table.width - reach) return null;
  for (const c of table.cushions) {
    const [ax, ay] = c.a;
    const [bx, by] = c.b;
    const dx = bx - ax;
    const dy = by - ay;
    const t = ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy);
    if (t <= 0 || t >= 1) continue;
    if (Math.hypot(x - ax - t * dx, y - ay - t * dy) <= reach) return c.id;
  }
  return null;
}

const START_SLACK = 5e-4;

/** simulate._start_positions: the centres nudged onto the cloth and out of each other; null for a layout
 * the engine refuses (the server never sends one; a ball off the cloth is one hanging in the jaws). */
function startPositions(table, positions) {
  const R = table.ball_radius;
  const [loX, hiX, loY, hiY] = [R, table.length - R, R, table.width - R];
  const hanging = [];
  const pos = positions.map(([x, y]) => {
    const onCloth = loX - START_SLACK <= x && x <= hiX + START_SLACK && loY - START_SLACK <= y && y <= hiY + START_SLACK;
    hanging.push(!onCloth);
    return onCloth ? [Math.min(Math.max(x, loX), hiX), Math.min(Math.max(y, loY), hiY)] : [x, y];
  });
  const D = 2 * R;
  for (let round = 0; round < 20; round++) {
    let moved = false;
    for (let i = 0; i < pos.length; i++) {
      for (let j = i + 1; j < pos.length; j++) {
        let dx = pos[j][0] - pos[i][0];
        let dy = pos[j][1] - pos[i][1];
        let dist = Math.hypot(dx, dy);
        if (dist >= D) continue;
        if (D - dist > START_SLACK) return null;
        if (dist === 0) {
          dx = 1;
          dy = 0;
          dist = 1;
        }
        const push = 0.5 * (D - dist) + 1e-9;
        const ux = dx / dist;
        const uy = dy / dist;
        for (const [k, sign] of [[i, -1], [j, 1]]) {
          let nx = pos[k][0] + sign * push * ux;
          let ny = pos[k][1] + sign * push * uy;
          if (!hanging[k]) {
            nx = Math.min(Math.max(nx, loX), hiX);
            ny = Math.min(Math.max(ny, loY), hiY);
          }
          pos[k] = [nx, ny];
        }
        moved = true;
      }
    }
    if (!moved) break;
  }
  return pos;
}

// --- event_loop.py's loop -----------------------------------------------------------------------------------

/** aim.BALL_IDS order (balls.BALL_IDS): the balls of a shot, in the order of ties. */
const BALL_IDS = ["white1", "white2", "red1", "red2", "kaisa"];
const STATE_NAMES = ["stationary", "spinning", "sliding", "rolling", "pocketed"];
const POCKETED = 4;
const TIER_TRANSITION = 1;
const TIER_POCKET = 2;
const TIER_COLLISION = 3;
const TRANSITION = 0;
const BALL = 1;
const TABLE = 2;
const NEVER = [INF, 0, 0, TRANSITION, 0];
/** The event a straight feature's bounce reports (a capture line drops the ball instead). */
const LINE_EVENTS = { [CUSHION]: "ball_cushion", [FACING]: "ball_jaw" };

function less(a, b) {
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return a[k] < b[k];
  return false;
}

/** event_loop.EventLoop: one shot in progress, its cached candidates, and its events so far. */
class EventLoop {
  constructor(table, movers, geo, ph, struck) {
    const n = movers.length;
    this.table = table;
    this.movers = movers;
    this.n = n;
    this.geo = geo;
    this.ph = ph;
    this.R = geo.R;
    this.D = 2 * geo.R;
    /** @type {{time: number, kind: string, balls: string[], where: string | null, point: number[] | null}[]} */
    this.events = [];
    /** @type {Record<string, string>} */
    this.pocketed = {};
    this.active = movers.map(() => true);
    /** @type {Record<string, number>} */
    this.cushionLines = {};
    geo.lines.forEach((line, k) => {
      if (line.kind === CUSHION) this.cushionLines[line.where] = k;
    });
    /** @type {([number, number] | null)[]} */
    this.resting = movers.map(() => null);
    if (struck !== null) this.markResting(struck, 0);
    this.now = 0;
    this.count = 0;
    this.trans = movers.map(() => NEVER);
    this.tableC = movers.map(() => NEVER);
    /** @type {Map<number, (number)[]>} pair candidates by i * n + j (i < j), in the order of their keys */
    this.pairC = new Map();
    for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) this.pairC.set(i * n + j, NEVER);
    this.refresh(movers.map((_, i) => i), 0);
  }

  refresh(involved, now) {
    const { movers, active, n, pairC, geo } = this;
    for (const i of involved) {
      const b = movers[i];
      if (!active[i]) {
        this.trans[i] = this.tableC[i] = NEVER;
        for (let j = 0; j < n; j++) if (j !== i) pairC.set(i < j ? i * n + j : j * n + i, NEVER);
        continue;
      }
      this.trans[i] = [b.tEnd, TIER_TRANSITION, i, TRANSITION, -1];
      const [t, feature, kind] = tableTime(b, now, geo);
      this.tableC[i] = [t, kind === CAPTURE ? TIER_POCKET : TIER_COLLISION, i, TABLE, feature];
    }
    const done = new Set();
    for (const i of involved) {
      for (let j = 0; j < n; j++) {
        if (j === i || !active[j] || !active[i]) continue;
        const [lo, hi] = i < j ? [i, j] : [j, i];
        const key = lo * n + hi;
        if (done.has(key)) continue;
        done.add(key);
        pairC.set(key, [pairTime(movers[lo], movers[hi], now, this.D), TIER_COLLISION, lo, BALL, hi]);
      }
    }
  }

  earliest() {
    if (!this.n) return NEVER;
    let best = NEVER;
    for (const c of this.trans) if (less(c, best)) best = c;
    for (const c of this.tableC) if (less(c, best)) best = c;
    for (const c of this.pairC.values()) if (less(c, best)) best = c;
    return best;
  }

  /** event_loop.EventLoop.step: handle the earliest event; false when every ball rests or dropped, or at
   * a cap (where the engine would refuse the shot). */
  step() {
    let [t, , i, target, j] = this.earliest();
    if (t === INF || t > this.ph.max_time || this.count >= this.ph.max_events) return false;
    this.count += 1;
    if (t < this.now) t = this.now;
    this.now = t;
    if (target === TRANSITION) this.onTransition(i, t);
    else if (target === BALL) this.onBallBall(i, j, t);
    else if (j < this.geo.lines.length) this.onLine(i, j, t);
    else this.onJawTip(i, this.geo.rounds[j - this.geo.lines.length], t);
    return true;
  }

  drop(i, t, where, x, y) {
    const b = this.movers[i];
    b.state = POCKETED;
    b.tEnd = INF;
    this.active[i] = false;
    this.pocketed[b.id] = where;
    this.events.push({ time: t, kind: "ball_pocket", balls: [b.id], where, point: [x, y] });
  }

  markResting(i, t) {
    const b = this.movers[i];
    const cushion = frozenCushion(this.table, b.x, b.y);
    this.resting[i] = cushion === null ? null : [this.cushionLines[cushion], t];
  }

  stayedAgainst(i, line, since, t) {
    const segments = this.movers[i].segments;
    let end = t;
    for (let k = segments.length - 1; k >= 0; k--) {
      const [t0, x, y, vx, vy, accx, accy] = segments[k];
      if (t0 < end) {
        const g0 = line.nx * (x - line.ax) + line.ny * (y - line.ay) - line.offset;
        const [, hi] = extent(g0, line.nx * vx + line.ny * vy, line.nx * accx + line.ny * accy, end - t0);
        if (hi > this.table.frozen_tolerance) return false;
      }
      if (t0 <= since) return true;
      end = t0;
    }
    return true;
  }

  onTransition(i, t) {
    this.resting[i] = null;
    const b = this.movers[i];
    const old = b.state;
    const [x, y, vx, vy, wx, wy, wz] = settled(b, t);
    const next = b.setMotion(t, x, y, vx, vy, wx, wy, wz);
    this.events.push({ time: t, kind: `${STATE_NAMES[old]}_to_${STATE_NAMES[next]}`, balls: [b.id], where: null, point: null });
    if (next <= SPINNING) {
      const hole = overHole(this.geo, x, y);
      if (hole !== null) this.drop(i, t, hole, x, y);
    }
    this.refresh([i], t);
  }

  onBallBall(i, j, t) {
    const b = this.movers[i];
    const b2 = this.movers[j];
    for (const [k, ball] of [[i, b], [j, b2]]) {
      if (ball.state <= SPINNING) this.markResting(k, t);
      else if (this.resting[k] !== null && this.resting[k][1] !== t) this.resting[k] = null;
    }
    const [after1, after2, point, firstLeads] = ballContact(b, b2, t, this.ph);
    b.setMotion(t, ...after1);
    b2.setMotion(t, ...after2);
    this.events.push({ time: t, kind: "ball_ball", balls: firstLeads ? [b.id, b2.id] : [b2.id, b.id], where: null, point });
    this.refresh([i, j], t);
  }

  onLine(i, index, t) {
    const line = this.geo.lines[index];
    const mark = this.resting[i];
    const resting = mark !== null && mark[0] === index && this.stayedAgainst(i, line, mark[1], t);
    this.resting[i] = resting ? mark : null;
    const b = this.movers[i];
    const [x0, y0, vx, vy, wx, wy, wz] = b.kinematics(t);
    if (line.kind === CAPTURE) {
      this.drop(i, t, line.where, x0, y0);
      this.refresh([i], t);
      return;
    }
    const [x, y, kx, ky, px, py] = lineContact(line, x0, y0, this.R, this.ph.separation);
    this.bounce(i, resting ? null : LINE_EVENTS[line.kind], line.where, t, x, y, [vx, vy], [wx, wy, wz], kx, ky, px, py);
  }

  onJawTip(i, tip, t) {
    this.resting[i] = null;
    const [x0, y0, vx, vy, wx, wy, wz] = this.movers[i].kinematics(t);
    const [x, y, kx, ky, px, py] = tipContact(tip, x0, y0, this.R, this.ph.separation);
    this.bounce(i, "ball_jaw", tip.where, t, x, y, [vx, vy], [wx, wy, wz], kx, ky, px, py);
  }

  bounce(i, kind, where, t, x, y, v, w, kx, ky, px, py) {
    const { geo, ph } = this;
    const out = resolveCushion(kx, ky, v, w, this.R, geo.sinT, geo.cosT, ph.e_c, ph.f_c);
    const b = this.movers[i];
    b.setMotion(t, x, y, ...out);
    if (kind !== null) this.events.push({ time: t, kind, balls: [b.id], where, point: [px, py] });
    this.refresh([i], t);
  }
}

/** simulate.shot_loop: the shot at time 0, the struck ball launched; null for a layout the engine refuses. */
function shotLoop(table, balls, strike) {
  const ph = table.physics;
  const R = table.ball_radius;
  const ids = BALL_IDS.filter((id) => balls[id]);
  const starts = startPositions(table, ids.map((id) => balls[id]));
  if (!starts) return null;
  const movers = ids.map((id, i) => {
    const b = new MovingBall(i, id, R, ph);
    const [x, y] = starts[i];
    if (id === strike.ball) b.setMotion(0, x, y, ...launch(strike.speed, strike.angle, strike.side || 0, strike.height || 0, R, ph));
    else b.setMotion(0, x, y, 0, 0, 0, 0, 0);
    return b;
  });
  return new EventLoop(table, movers, geometryOf(table), ph, ids.indexOf(strike.ball));
}

// --- aim.py ---------------------------------------------------------------------------------------------

export const MAX_JAW_CONTACTS = 12;
const CONTACTS = new Set(["ball_ball", "ball_cushion", "ball_jaw", "ball_pocket"]);

/** aim._Follow: a ball the preview follows from `start`, and its run once it has met something. */
class Follow {
  constructor(ball, start, throughJaws = false, cluster = new Set()) {
    this.ball = ball;
    this.start = start;
    this.throughJaws = throughJaws;
    this.cluster = cluster;
    this.jaws = [];
    this.jawPocket = null;
    this.run = null;
  }

  end(end, where, t, at, point) {
    const segs = this.ball.segments;
    const pieces = [];
    segs.forEach((s, k) => {
      if (this.start <= s[0] && (s[0] < t || s[0] === this.start)) {
        pieces.push([s[0], k + 1 < segs.length && segs[k + 1][0] < t ? segs[k + 1][0] : t, ...s.slice(1)]);
      }
    });
    this.run = { pieces, end, where, at, point, time: t, jaws: this.jaws, jaw_pocket: this.jawPocket };
  }

  meets(event, at) {
    const { kind, where, time: t } = event;
    if (kind === "ball_ball") {
      const other = event.balls.find((id) => id !== this.ball.id);
      if (!this.cluster.has(other)) this.end("ball", other, t, at, event.point);
      return;
    }
    this.cluster = new Set();
    if (kind === "ball_pocket") this.end("pocket", where, t, at, event.point);
    else if (kind === "ball_cushion") this.end("cushion", where, t, at, event.point);
    else if (kind === "ball_jaw") {
      if (!this.throughJaws || (this.jawPocket !== null && where !== this.jawPocket)) {
        this.end("jaw", where, t, at, event.point);
        return;
      }
      this.jawPocket = where;
      this.jaws.push([event.point[0], event.point[1], t]);
      if (this.jaws.length > MAX_JAW_CONTACTS) this.end("limit", where, t, at, event.point);
    } else if (this.ball.state <= SPINNING) this.end("rest", null, t, at, null);
  }
}

/** aim._follow: step the shot until each followed ball's run has ended; their runs. */
function follow(loop, follows) {
  for (const f of follows) {
    if (f.ball.state <= SPINNING) f.end("rest", null, f.start, f.ball.position(f.start), null);
  }
  for (;;) {
    const live = follows.filter((f) => f.run === null);
    if (!live.length) break;
    const t = loop.earliest()[0];
    if (t === INF || t > loop.ph.max_time || loop.count >= loop.ph.max_events) {
      for (const f of live) f.end("limit", null, loop.now, f.ball.position(loop.now), null);
      break;
    }
    const before = live.map((f) => f.ball.position(Math.max(t, loop.now)));
    const seen = loop.events.length;
    loop.step();
    for (const event of loop.events.slice(seen)) {
      live.forEach((f, k) => {
        if (f.run !== null || !event.balls.includes(f.ball.id)) return;
        // A ball that comes to rest over a hole reports its stop, then its drop: the drop ends its run.
        if (!CONTACTS.has(event.kind) && f.ball.id in loop.pocketed) return;
        f.meets(event, before[k]);
      });
    }
  }
  return follows.map((f) => f.run);
}

/**
 * aim.aim_preview: the preview of a strike with the balls at rest where `balls` says (null: off the table).
 * @param {object} table the page's table, with its `physics`
 * @param {Record<string, number[] | null>} balls
 * @param {{ball: string, speed: number, angle: number, side?: number, height?: number}} strike
 * @returns {{cue: object, hit: string | null, direction: number[] | null, throw: number, object: object | null, cueAfter: object | null} | null}
 */
export function aimPreview(table, balls, strike) {
  const ph = table.physics;
  if (!ph || !balls[strike.ball] || !(strike.speed > 0)) return null;
  const loop = shotLoop(table, balls, strike);
  if (!loop) return null;
  /** @type {Record<string, MovingBall>} */
  const movers = {};
  for (const b of loop.movers) movers[b.id] = b;
  const cue = movers[strike.ball];
  const [first] = follow(loop, [new Follow(cue, 0)]);
  const preview = { cue: first, hit: null, direction: null, throw: 0, object: null, cueAfter: null };
  if (first.end !== "ball") return preview;
  const obj = movers[first.where];
  const nx = obj.x - cue.x;
  const ny = obj.y - cue.y;
  const speed = Math.hypot(obj.vx, obj.vy);
  const [dx, dy] = speed > 0 ? [obj.vx / speed, obj.vy / speed] : [nx / Math.hypot(nx, ny), ny / Math.hypot(nx, ny)];
  // The impact: the cue ball and the balls that touched the object ball at the start (aim.py).
  const reach = 2 * table.ball_radius + table.frozen_tolerance;
  const [ox, oy] = obj.segments[0].slice(1, 3);
  const cluster = new Set(
    loop.movers.filter((b) => b !== obj && Math.hypot(b.segments[0][1] - ox, b.segments[0][2] - oy) <= reach).map((b) => b.id),
  );
  cluster.add(cue.id);
  const [object, cueAfter] = follow(loop, [new Follow(obj, first.time, true, cluster), new Follow(cue, first.time, false, new Set([obj.id]))]);
  return { ...preview, hit: obj.id, direction: [dx, dy], throw: Math.atan2(nx * dy - ny * dx, nx * dx + ny * dy), object, cueAfter };
}

/**
 * Points along a run's path for drawing: each piece sampled (a sliding piece curves), up to `until` (s).
 * @returns {number[][]}
 */
export function runPoints(runOf, until = INF, perPiece = 8) {
  const out = [];
  for (const [t0, t1, x, y, vx, vy, ax, ay] of runOf.pieces) {
    const end = Math.min(t1, until);
    if (end < t0) break;
    const curved = ax * vy - ay * vx !== 0;
    const n = curved ? perPiece : 1;
    for (let k = out.length ? 1 : 0; k <= n; k++) {
      const s = ((end - t0) * k) / n;
      out.push([x + (vx + 0.5 * ax * s) * s, y + (vy + 0.5 * ay * s) * s]);
    }
    if (end < t1) break;
  }
  return out;
}

// --- the line the pages draw ----------------------------------------------------------------------------

let memo = { key: "", line: null };

/**
 * The aim line of the strike `aim` would send (its speed to the millimetre per second, as intents.js
 * strikeOf sends it), for the renderer and the automatic call:
 * - `cuePath` the cue ball's centre up to `end`, where it first touches something (the ghost ball when
 *   that is a ball); `cushion` where it meets the table instead;
 * - `hit`: the ball it hits, the object ball's departure direction `objectDir` and `throw`, `pocket` when
 *   it drops, `objectPath` drawn up to the drop or, when it misses, to where it first meets the table
 *   (`stop`: {kind "jaw" | "cushion" | "ball" | "rest", where, at (its centre), point}), and `cueAfter`
 *   the cue ball's path from the contact to the next thing it touches or its rest.
 * Null without a cue ball on the table or without the table's physics.
 */
export function aimLine(table, balls, cueId, aim) {
  const origin = balls[cueId];
  if (!origin || !table.physics) return null;
  const strike = { ball: cueId, angle: aim.angle, speed: Math.round(aim.speed * 1000) / 1000, side: aim.side || 0, height: aim.height || 0 };
  const key = JSON.stringify([balls, strike]);
  if (memo.key === key && memo.table === table) return memo.line;
  const preview = aimPreview(table, balls, strike);
  const line = preview && lineOf(preview, origin, aim.angle);
  memo = { key, table, line };
  return line;
}

function lineOf(preview, origin, angle) {
  const dir = [Math.cos(angle), Math.sin(angle)];
  const first = preview.cue;
  const base = { origin, dir, end: first.at, cuePath: runPoints(first), preview };
  if (!preview.hit) return { ...base, hit: null, cushion: { id: first.where, kind: first.end, point: first.point || first.at } };
  const object = preview.object;
  const pocket = object.end === "pocket" ? object.where : null;
  let stop;
  let until = object.time;
  if (pocket) {
    stop = { kind: "pocket", where: pocket, at: object.at, point: object.point };
  } else if (object.jaws.length) {
    const [px, py, t] = object.jaws[0];
    until = t;
    stop = { kind: "jaw", where: object.jaw_pocket, at: null, point: [px, py] };
  } else {
    stop = { kind: object.end, where: object.where, at: object.at, point: object.point };
  }
  const objectPath = runPoints(object, until);
  if (!stop.at) stop.at = objectPath[objectPath.length - 1];
  const [ox, oy] = preview.direction;
  const cueAfter = preview.cueAfter;
  return {
    ...base,
    cushion: null,
    hit: {
      ball: preview.hit,
      ghost: first.at,
      objectDir: [ox, oy],
      throw: preview.throw,
      pocket,
      objectPath,
      stop,
      cueAfter: runPoints(cueAfter),
      cueStop: { kind: cueAfter.end, where: cueAfter.where, at: cueAfter.at },
    },
  };
}
