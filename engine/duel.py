"""`python -m engine.duel`: the duel of computer players, under the name the
issue and outside checks use. The tool itself lives in `cli.duel`; this only
runs its main, so there is one duel and one set of options.

    python -m engine.duel --seats hard,normal,normal,normal --rounds 4000
    python -m engine.duel --compare normal:toep-always --seats hard,hard,hard
"""

from __future__ import annotations

import sys

from cli.duel import main

if __name__ == "__main__":
    sys.exit(main())
