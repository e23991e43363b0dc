"""`python -m engine.bots.policy.solve`: compute the betting policy and write
it to engine/bots/policy/policy.json (or `--out`), bit for bit the same on
every run with the same configuration.

    python -m engine.bots.policy.solve            # the shipped policy
    python -m engine.bots.policy.solve --deals 20 --iterations 50 --out /tmp/p.json

Deals are dealt and played quietly (see `dataset`), the abstract games built
(see `game`) and solved by CFR+ (see `cfr`); the file's header says the
configuration, the method and the exploitability: what a best response gains
against the policy in the abstract game, per seat, in the payoff's marks per
decision (see `exploit`). It prints the seconds each step took.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from engine.bots.policy import cfr, exploit
from engine.bots.policy.abstraction import BUCKETS, EDGES, PLAYERS, histories
from engine.bots.policy.dataset import samples
from engine.bots.policy.game import PAYOFFS, build
from engine.bots.policy.table import FORMAT, POLICY_FILE

log = logging.getLogger(__name__)

DIGITS = 3  # probabilities are rounded so the file is small and stable


@dataclass(frozen=True)
class Config:
    deals: tuple[int, ...] = (2000, 1500, 2000)  # per players in the round: 2, 3, 4
    guesses: int = 16
    iterations: int = 400
    seed: int = 1
    # An information set reached in less than this share of its game's
    # moments is left to the search (see `cfr.Solver.average`).
    min_reach: float = 0.003
    payoff: str = "own"  # or "relative": see `game.PAYOFFS` and docs/policy.md


def _rounded(value: float) -> float | None:
    return None if value != value else round(value, DIGITS)  # NaN: never reached


def solve(config: Config, say: bool = False) -> dict[str, object]:
    """The policy file's content for `config`."""
    policies: dict[str, object] = {}
    gains: dict[str, object] = {}
    for players, deals in zip(PLAYERS, config.deals, strict=True):
        start = time.perf_counter()
        data = samples(players, deals, config.guesses, config.seed)
        game, ctxs = build(players, data, config.payoff)
        dealt = time.perf_counter()
        solver = cfr.Solver(game)
        solver.run(config.iterations)
        strategy = solver.average(config.min_reach)
        gains[f"{players}p"] = exploit.summary(game, solver.average())
        bold = strategy[:, 1].reshape(len(ctxs), game.groups, BUCKETS)
        for i, ctx in enumerate(ctxs):
            policies[ctx.name] = {
                "toep": [_rounded(float(p)) for p in bold[i, 0]],
                "answer": [[_rounded(float(p)) for p in bold[i, g]]
                           for g in range(1, game.groups)],
            }
        if say:
            print(f"{players} players: {len(data)} moments from {deals} deals in "
                  f"{dealt - start:.1f} s, solved in {time.perf_counter() - dealt:.1f} s; "
                  f"exploitability {gains[f'{players}p']}", flush=True)
    return {
        "format": FORMAT,
        "made_by": "python -m engine.bots.policy.solve",
        "method": "CFR+ (alternating updates, linear averaging) over the abstract betting game",
        "config": asdict(config),
        "buckets": list(EDGES),
        "histories": {str(p): [list(h) for h in histories(p)] for p in PLAYERS},
        "exploitability": gains,
        "policies": policies,
    }


def dump(content: dict[str, object]) -> str:
    return json.dumps(content, sort_keys=True, separators=(",", ":")) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.bots.policy.solve",
                                     description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    base = Config()
    parser.add_argument("--deals", type=int, nargs=3, default=list(base.deals),
                        metavar=("TWO", "THREE", "FOUR"),
                        help="deals per players in the round (default %(default)s)")
    parser.add_argument("--guesses", type=int, default=base.guesses)
    parser.add_argument("--iterations", type=int, default=base.iterations)
    parser.add_argument("--seed", type=int, default=base.seed)
    parser.add_argument("--payoff", choices=sorted(PAYOFFS), default=base.payoff,
                        help="relative: marks less the others' mean; own: own marks")
    parser.add_argument("--out", type=Path, default=POLICY_FILE)
    args = parser.parse_args(argv)
    if min(args.deals) < 1 or args.guesses < 1 or args.iterations < 1:
        parser.error("--deals, --guesses and --iterations must be at least 1")
    config = Config(tuple(args.deals), args.guesses, args.iterations, args.seed, base.min_reach,
                    args.payoff)
    start = time.perf_counter()
    text = dump(solve(config, say=True))
    args.out.write_text(text, encoding="utf-8")
    print(f"wrote {args.out} ({len(text)} bytes) in {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
