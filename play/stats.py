"""Small statistics shared by the simulation and lab summaries."""

import math


def wilson_interval(successes: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """Return the 95% Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return (low, high)


def mean_of(histogram: dict[str, int]) -> float:
    """Return the mean of a {value: count} histogram."""
    n = sum(histogram.values())
    return sum(float(k) * v for k, v in histogram.items()) / n if n else 0.0
