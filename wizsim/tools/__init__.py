"""The tools built on runs: the bid and play advisors, review, tournaments, benchmarks, exact odds."""
