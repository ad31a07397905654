"""Collision models: each resolves one instantaneous contact and returns the bodies' new velocities and
spins. They are pure functions of plain floats, so a model can be swapped and tested alone."""
