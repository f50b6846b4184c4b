"""What the run's move-order hints save a verification: one checkpointed run (which keeps the
hints of each sub-proof it answers, see solver/sanjego/order_hints.py), then its verification
with and without them.

    python scripts/bench_hints.py --board 6x4 --table-mb 256 [--depth 1]

One worker, so the node counts are exact. The hints only order moves; both verifications
answer every question with their own keys and table (and must agree with the run).
"""

import os
import tempfile
import time

from benchruns import header, run_options, solve_run  # (puts this checkout first on sys.path)
from solver.sanjego.parallel import open_run
from solver.sanjego.verify import Verification


def main():
    args = run_options(__doc__, 256.0).parse_args()
    header(args)
    with tempfile.TemporaryDirectory() as tmp:
        run = os.path.join(tmp, "run")
        proof, value, seconds = solve_run(args, run)
        print(f"{'':>22} {'value':>6} {'questions':>9} {'nodes':>13} {'wall s':>8}")
        print(f"{'run':>22} {value:>+6d} {proof.subproofs:>9} {proof.nodes:>13} {seconds:>8.2f}")
        for label, hints in (("verify, no hints", False), ("verify, order hints", True)):
            out = os.path.join(tmp, label.replace(" ", "").replace(",", "-"))
            t0 = time.perf_counter()
            result = Verification(open_run(run)[0], run, workers=1, table_mb=args.table_mb, out_dir=out,
                                  order_hints=hints).verify()
            print(f"{label:>22} {result['value']:>+6d} {result['questions']:>9} {result['nodes']:>13} "
                  f"{time.perf_counter() - t0:>8.2f}", flush=True)


if __name__ == "__main__":
    main()
