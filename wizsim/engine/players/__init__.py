"""The built-in players' decisions inside the kernels: a module per player (:mod:`.seats` switches on the id)."""
