"""Wait for a condition, with a deadline, instead of sleeping a guessed time.

A fixed sleep is too short on a busy machine and wasted on an idle one; polling a condition
returns as soon as it holds and fails with what it was waiting for when it never does.
"""

import time


def wait_until(predicate, *, timeout: float, interval: float = 0.2, what: str = "condition"):
    """Return the first truthy value of `predicate()`; fail once `timeout` seconds have passed."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}")
        time.sleep(interval)
