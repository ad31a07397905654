// @ts-check
/**
 * The aim preview, the browser's mirror of the engine's game/engine/physics/aim.py: where a strike first
 * touches something, and where the object ball goes from there, with the engine's own formulas (the cue's
 * launch with squirt, the cloth's closed-form motion, the contact times, the frictional ball-ball impulse
 * that makes throw, the rubber's impulse at the jaws). It follows one ball at a time among the others at
 * rest, as aim.py does; it simulates no shot (the server does: docs/decisions/aim-preview.md).
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

/** event_loop.ball_contact: both balls' [x, y, vx, vy, wx, wy, wz] after their impulse, a micrometre apart. */
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
  if (dist < D + sep) {
    const push = 0.5 * (D + sep - dist);
    x1 -= push * nx;
    y1 -= push * ny;
    x2 += push * nx;
    y2 += push * ny;
  }
  return [
    [x1, y1, ...a1],
    [x2, y2, ...a2],
  ];
}

// --- aim.py ---------------------------------------------------------------------------------------------

/** aim.BALL_IDS order (balls.BALL_IDS): the index of each ball, for the order of ties. */
const BALL_IDS = ["white1", "white2", "red1", "red2", "kaisa"];
export const MAX_JAW_CONTACTS = 12;
const TIER_TRANSITION = 1;
const TIER_POCKET = 2;
const TIER_COLLISION = 3;

function less(a, b) {
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return a[k] < b[k];
  return false;
}

function endRun(b, end, where, t, point, jaws, jawPocket) {
  const segs = b.segments;
  const pieces = [];
  segs.forEach((s, k) => {
    if (s[0] <= t) pieces.push([s[0], k + 1 < segs.length ? segs[k + 1][0] : t, ...s.slice(1)]);
  });
  return { pieces, end, where, at: b.position(t), point, time: t, jaws, jaw_pocket: jawPocket };
}

/** aim._run: follow ball b among `others` at rest from `now` until it touches something or stops (through
 * the jaws of the first pocket it meets when `throughJaws`). */
function run(b, others, geo, ph, start, throughJaws) {
  const R = geo.R;
  const D = 2 * R;
  const sep = ph.separation;
  const i = b.index;
  const jaws = [];
  let jawPocket = null;
  let now = start;
  for (;;) {
    let best = [b.tEnd, TIER_TRANSITION, i, 0, -1];
    const [tt, feature, kind] = tableTime(b, now, geo);
    let cand = [tt, kind === CAPTURE ? TIER_POCKET : TIER_COLLISION, i, 2, feature];
    if (less(cand, best)) best = cand;
    for (const other of others) {
      const j = other.index;
      cand = [pairTime(b, other, now, D), TIER_COLLISION, Math.min(i, j), 1, Math.max(i, j)];
      if (less(cand, best)) best = cand;
    }
    const [t, , low, target, high] = best;
    if (t === INF) return endRun(b, "rest", null, now, null, jaws, jawPocket);
    now = t;
    if (target === 0) {
      const [x, y, vx, vy, wx, wy, wz] = settled(b, now);
      const state = b.setMotion(now, x, y, vx, vy, wx, wy, wz);
      if (state <= SPINNING) {
        const hole = overHole(geo, b.x, b.y);
        return endRun(b, hole === null ? "rest" : "pocket", hole, now, null, jaws, jawPocket);
      }
      continue;
    }
    if (target === 1) {
      const hitIndex = low === i ? high : low;
      const hit = others.find((o) => o.index === hitIndex);
      const [x, y] = b.position(now);
      return endRun(b, "ball", hit.id, now, [0.5 * (x + hit.x), 0.5 * (y + hit.y)], jaws, jawPocket);
    }
    let [x, y, vx, vy, wx, wy, wz] = b.kinematics(now);
    let contact;
    let where;
    let isJaw;
    if (high < geo.lines.length) {
      const line = geo.lines[high];
      if (line.kind === CAPTURE) return endRun(b, "pocket", line.where, now, [x, y], jaws, jawPocket);
      contact = lineContact(line, x, y, R, sep);
      where = line.where;
      isJaw = line.kind === FACING;
    } else {
      const tip = geo.rounds[high - geo.lines.length];
      contact = tipContact(tip, x, y, R, sep);
      where = tip.where;
      isJaw = true;
    }
    const [cx, cy, kx, ky, px, py] = contact;
    if (!(isJaw && throughJaws) || (jawPocket !== null && where !== jawPocket)) {
      return endRun(b, isJaw ? "jaw" : "cushion", where, now, [px, py], jaws, jawPocket);
    }
    jawPocket = where;
    jaws.push([px, py, now]);
    if (jaws.length > MAX_JAW_CONTACTS) return endRun(b, "limit", where, now, [px, py], jaws, jawPocket);
    [vx, vy, wx, wy, wz] = resolveCushion(kx, ky, [vx, vy], [wx, wy, wz], R, geo.sinT, geo.cosT, ph.e_c, ph.f_c);
    b.setMotion(now, cx, cy, vx, vy, wx, wy, wz);
  }
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
  const geo = geometryOf(table);
  const R = table.ball_radius;
  /** @type {Record<string, MovingBall>} */
  const movers = {};
  BALL_IDS.forEach((id, index) => {
    const pos = balls[id];
    if (!pos) return;
    const b = new MovingBall(index, id, R, ph);
    b.setMotion(0, pos[0], pos[1], 0, 0, 0, 0, 0);
    movers[id] = b;
  });
  const cue = movers[strike.ball];
  cue.segments.length = 0;
  cue.setMotion(0, cue.x, cue.y, ...launch(strike.speed, strike.angle, strike.side || 0, strike.height || 0, R, ph));
  const others = Object.values(movers).filter((b) => b !== cue);
  const first = run(cue, others, geo, ph, 0, false);
  const preview = { cue: first, hit: null, direction: null, throw: 0, object: null, cueAfter: null };
  if (first.end !== "ball") return preview;
  const obj = movers[first.where];
  obj.segments.length = 0;
  const [afterCue, afterObj] = ballContact(cue, obj, first.time, ph);
  cue.segments.length = 0;
  cue.setMotion(first.time, ...afterCue);
  obj.setMotion(first.time, ...afterObj);
  const nx = afterObj[0] - afterCue[0];
  const ny = afterObj[1] - afterCue[1];
  const speed = Math.hypot(afterObj[2], afterObj[3]);
  const dx = afterObj[2] / speed;
  const dy = afterObj[3] / speed;
  const rest = others.filter((b) => b !== obj);
  return {
    ...preview,
    hit: obj.id,
    direction: [dx, dy],
    throw: Math.atan2(nx * dy - ny * dx, nx * dx + ny * dy),
    object: run(obj, rest, geo, ph, first.time, true),
    cueAfter: run(cue, rest, geo, ph, first.time, false),
  };
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
