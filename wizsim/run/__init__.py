"""Runs: the validated request, running it (in parallel, recorded), headers, estimates, output files."""
