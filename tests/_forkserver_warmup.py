"""Imported by the forkserver of tests/test_write_faults.py before it forks any child.

It loads (from Numba's cache, or compiles) the kernels the children run, so that
each child, a fork of the server, starts with them in memory: a child then takes
a few hundredths of a second instead of about a second of loading.
"""

import pyarrow  # noqa: F401 - the parquet writer

import wizsim
from wizsim.run.history import history

wizsim.simulate(3, cards=3, hands=10, seed=0)
wizsim.simulate(3, games=3, schedule=[1, 2], seed=0)
history(players=3, games=2, schedule=[1], seed=0)
