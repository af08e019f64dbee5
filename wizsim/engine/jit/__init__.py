"""Numba tooling of the kernels: options and cache fingerprint, inliner fix, borrowed views, bits, random streams, SIMD."""
