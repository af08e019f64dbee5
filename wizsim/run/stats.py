"""Estimates with 95% intervals from integer sums (no rows are ever stored)."""

from __future__ import annotations

from typing import overload

import numpy as np
import numpy.typing as npt

Z95 = 1.959963984540054

# Scalars in, NumPy float64 scalars out (a subclass of float); arrays in, arrays out.
_Estimate = tuple[np.float64, np.float64, np.float64]
_Estimates = tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64]]


@overload
def mean_ci(total: float, total_sq: float, count: float) -> _Estimate: ...
@overload
def mean_ci(total: npt.ArrayLike, total_sq: npt.ArrayLike, count: npt.ArrayLike) -> _Estimates: ...
def mean_ci(total: npt.ArrayLike, total_sq: npt.ArrayLike, count: npt.ArrayLike) -> _Estimate | _Estimates:
    """Mean and normal 95% interval from sums of x and x**2 over ``count`` observations.

    Sums are integers (exact); the variance is the unbiased sample variance.
    Returns (mean, low, high); NaN where ``count`` is 0, and NaN bounds where
    ``count`` is 1 (one observation says nothing about the spread).
    """
    t = np.asarray(total, dtype=np.float64)
    t2 = np.asarray(total_sq, dtype=np.float64)
    n = np.asarray(count, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = t / n
        var = (t2 - n * mean * mean) / (n - 1.0)
        half = np.where(n > 1, Z95 * np.sqrt(np.maximum(var, 0.0) / n), np.nan)
    return mean, mean - half, mean + half


@overload
def wilson_ci(successes: float, count: float) -> _Estimate: ...
@overload
def wilson_ci(successes: npt.ArrayLike, count: npt.ArrayLike) -> _Estimates: ...
def wilson_ci(successes: npt.ArrayLike, count: npt.ArrayLike) -> _Estimate | _Estimates:
    """Proportion and Wilson 95% score interval (good near 0 and 1 and for small counts)."""
    s = np.asarray(successes, dtype=np.float64)
    n = np.asarray(count, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = s / n
        z2 = Z95 * Z95
        centre = (p + z2 / (2 * n)) / (1 + z2 / n)
        half = Z95 * np.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    # clamp: rounding must not put a bound outside [0, 1] or on the wrong side of p
    lo = np.minimum(np.clip(centre - half, 0.0, 1.0), p)
    hi = np.maximum(np.clip(centre + half, 0.0, 1.0), p)
    return p, lo, hi


def format_pm(mean: float, lo: float, hi: float, digits: int) -> str:
    """A mean and the half-width of its (symmetric) 95% interval, as text (``n/a`` without one)."""
    if not (lo == lo and hi == hi):  # NaN: too few observations for an interval
        return f"{mean:.{digits}f} ± n/a"
    return f"{mean:.{digits}f} ± {(hi - lo) / 2:.{digits}f}"


def format_pct(p: float, lo: float, hi: float) -> str:
    """A proportion in percent with its (possibly asymmetric) 95% interval, as text."""
    if not (lo == lo and hi == hi):
        return f"{100 * p:.2f} [n/a]"
    return f"{100 * p:.2f} [{100 * lo:.2f}, {100 * hi:.2f}]"


class Est:
    """An estimate and its influence per cluster (a chunk, a game, a round): a sum of cluster totals or a ratio of
    two, whose standard error is ``sqrt(C / (C - 1) * sum(z**2))`` over the C clusters (the delta method).

    Estimates over the same clusters subtract cluster by cluster (``a - b``): paired, as common random
    numbers pair them.
    """

    def __init__(self, value: float, z: npt.ArrayLike) -> None:
        self.value = float(value)
        self.z = np.asarray(z, dtype=np.float64)

    def __sub__(self, other: Est) -> Est:
        return Est(self.value - other.value, self.z - other.z)

    def half(self) -> float:
        """Half-width of the 95% interval (nan with one cluster)."""
        c = len(self.z)
        return float(Z95 * np.sqrt(c / (c - 1) * np.sum(self.z**2))) if c > 1 else float("nan")

    def interval(self) -> tuple[float, float, float]:
        """(estimate, lower, upper) of the 95% interval."""
        h = self.half()
        return self.value, self.value - h, self.value + h


def ratio(num: npt.ArrayLike, den: npt.ArrayLike) -> Est:
    """sum(num) / sum(den) over clusters (a mean or a proportion), with each cluster's influence."""
    n, d = np.asarray(num, dtype=np.float64), np.asarray(den, dtype=np.float64)
    total = d.sum()
    m = n.sum() / total
    return Est(m, (n - m * d) / total)
