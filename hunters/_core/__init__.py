"""The Cython cores (one extension per game).

The Carcassonne core is built with OpenMP for its learning batch's threads. OpenMP threads spin while
they wait by default, which on a shared machine costs far more than they gain (measured: 2 threads,
256 games, load 5 on 2 cores: 167,000 steps/s passive, 7,000 spinning), so they wait passively unless
the environment already says otherwise. libgomp reads this when the extension is first loaded.
"""

import os

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
