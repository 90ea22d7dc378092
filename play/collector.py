"""The garbage collector's settings for a process that plays many matches.

`tune_collector_for_matches` is called once where such a process starts: each child of a
Celery worker (cardsite/celery.py) and the engine benchmark's main (bench/engine.py). The engine
never calls it, so the web process keeps Python's defaults.
"""

from __future__ import annotations

import gc

# A logged match builds about 3,000 dicts and lists that all live until the match ends. At
# Python's default young threshold (700) the collections their allocation triggers find nothing
# to free, yet walk them and push them into the older generations, whose collections then walk
# them again. At this threshold a logged match meets at most about one young collection:
# greedy vs greedy with full logs ran at 1,046 matches/s at the default and 1,273 at 50,000
# (bench/engine.py, compiled, side by side); unlogged matches were unchanged. A policy that
# leaves cyclic garbage behind (the search bot's copies) still has it collected, every
# 50,000 new objects.
YOUNG_THRESHOLD = 50_000


def tune_collector_for_matches() -> None:
    """Freeze what the process has loaded so far and raise the young generation's threshold.

    Frozen objects (modules, settings, the catalog a worker has read) are never walked again,
    and after a fork the collector no longer writes to the parent's pages.
    """
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, old)
