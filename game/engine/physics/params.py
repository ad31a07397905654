"""Physical coefficients of the simulation, all in SI units, with their sources.

The defaults are the values the physics digest (``/work/shared/physics-notes.md`` section b) settles on:

- ``g`` 9.81 m/s^2, standard gravity.
- ``u_s`` 0.2, sliding friction ball-cloth: Dr. Dave Alciatore's "physical properties" page gives 0.15-0.4,
  typically 0.2; pooltool's pool default is 0.2.
- ``u_r`` 0.01, rolling resistance: Dr. Dave 0.005-0.015; pooltool 0.01. A ball rolling at 1 m/s stops
  after 5.1 m.
- ``spin_decel`` 10 rad/s^2, deceleration of the spin about the vertical: Dr. Dave 5-15 rad/s^2; pooltool's
  u_sp = 0.444 R gives 10.9 rad/s^2.
- ``e_b`` 0.95, ball-ball restitution: Dr. Dave 0.92-0.98; pooltool 0.95.
- ``u_b_a``, ``u_b_b``, ``u_b_c``: ball-ball friction u_b(v) = a + b exp(-c v) of the relative surface
  speed v at the contact, the fit of Dr. Dave's TP A-14 (0.00995, 0.108, 1.088). It makes throw appear.
- ``e_c`` 0.85 and ``f_c`` 0.2, ball-cushion restitution and friction: pooltool's defaults; Dr. Dave gives
  e_c 0.6-0.9.
- ``cue_mass`` 0.5 kg, the effective mass of the cue in the tip impact (TP A-30); pooltool uses 0.567.
- ``tip_restitution`` 0.75, leather tip on a ball (Dr. Dave: 0.71-0.75); 1.0 is the ideal elastic tip.
- ``cue_end_mass`` 0.0075 kg, the cue's effective end mass for squirt (TP A-31, about m_ball / 30).
- ``max_events`` 5000 and ``max_time`` 60 s: the caps of the issue; hitting one raises SimulationCapError.
- ``separation`` 1e-6 m: the gap left between bodies after every contact so the next time-of-contact
  computation starts from a clean, non-touching configuration.
"""

from __future__ import annotations

from dataclasses import astuple, dataclass


@dataclass(frozen=True, slots=True)
class PhysicsParams:
    """Coefficients of the physics; see the module docstring for units and sources."""

    g: float = 9.81
    u_s: float = 0.2
    u_r: float = 0.01
    spin_decel: float = 10.0
    e_b: float = 0.95
    u_b_a: float = 0.00995
    u_b_b: float = 0.108
    u_b_c: float = 1.088
    e_c: float = 0.85
    f_c: float = 0.2
    cue_mass: float = 0.5
    tip_restitution: float = 0.75
    cue_end_mass: float = 0.0075
    max_events: int = 5000
    max_time: float = 60.0
    separation: float = 1e-6

    def __post_init__(self) -> None:
        if not (self.g > 0 and self.u_s > 0 and self.u_r > 0 and self.spin_decel > 0):
            raise ValueError("g, u_s, u_r and spin_decel must be positive")
        if not (0 <= self.e_b <= 1 and 0 <= self.e_c <= 1 and 0 <= self.tip_restitution <= 1):
            raise ValueError("restitution coefficients must lie in [0, 1]")

    def key(self) -> tuple[float, ...]:
        """All values as a tuple: a stable stamp of the physics for stored shots."""
        return astuple(self)
