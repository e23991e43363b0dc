"""The hard player's betting policy, computed rather than tuned.

The betting of one moment of a round (toep or play on; call or fold) is cut
down to a small abstract game (`abstraction`), its chance events taken from
real deals (`dataset`), solved offline by regret minimisation (`cfr`) into a
mixed policy shipped as `policy.json` (`solve` writes it, `table` reads it),
and measured by how much a best response gains against it (`exploit`).
See docs/policy.md.
"""
