"""The built-in players' decisions inside the kernels (:mod:`.dispatch` switches on the player id)."""
