"""`python -m play.engine build [--force] | state`: the compiled path (see compiled.py)."""

import sys

from play.engine.compiled import main

raise SystemExit(main(sys.argv[1:]))
