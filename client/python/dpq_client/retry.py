"""When and how the SDK retries a call.

Only UNAVAILABLE (server restarting, overloaded, heavy-job slots busy:
nothing was charged) and DEADLINE_EXCEEDED (the call may have been charged:
the retry with the SAME request id returns the recorded answer, or computes
it without a further charge; docs/privacy.md 3.2) are retried. A
REQUEST_IN_PROGRESS (ABORTED) answer is retried too, but only after one of
those: it then means that our own earlier attempt is still being computed,
and the retry will get its answer. Every other code is final, and so is
a ConfigurationError (an UNAVAILABLE that no retry can mend).
"""

import random
from dataclasses import dataclass
from typing import Any, Optional

import grpc


@dataclass(frozen=True)
class RetryPolicy:
    """Bounded retries with exponential backoff and full jitter.

    Attributes:
      max_retries: retries after the first attempt (0: never retry).
      initial_backoff: seconds before the first retry (the upper bound of
        its jittered wait); doubles with every retry...
      max_backoff: ...up to this bound. A RetryInfo delay from the server
        is waited at least.
      timeout_multiplier: each retry's deadline is the previous one times
        this (1: every attempt gets the same timeout), so a call that needs
        longer than the first deadline still completes...
      max_timeout: ...up to this many seconds per attempt.
    """

    max_retries: int = 3
    initial_backoff: float = 0.2
    max_backoff: float = 5.0
    timeout_multiplier: float = 2.0
    max_timeout: float = 300.0

    def backoff(self, retry: int, server_delay: Optional[float], rng: Any = random) -> float:
        """Seconds to wait before retry number `retry` (0-based)."""
        cap = min(self.max_backoff, self.initial_backoff * (2**retry))
        wait = rng.uniform(0, cap)
        if server_delay is not None:
            wait = max(wait, server_delay)
        return wait

    def attempt_timeout(self, first: float, retry: int) -> float:
        """The deadline (seconds) of attempt `retry + 1`."""
        return min(self.max_timeout, first * (self.timeout_multiplier**retry))


RETRYABLE = (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED)


def should_retry(error: Any, retry: int, policy: RetryPolicy, after_retryable: bool) -> bool:
    """True if the call that failed with `error` (a DpqError) is tried
    again as retry number `retry`. `after_retryable`: an earlier attempt of
    this call failed with a retryable code."""
    if retry >= policy.max_retries or error.reason == "CONFIGURATION":
        return False
    if error.code in RETRYABLE:
        return True
    return after_retryable and error.reason == "REQUEST_IN_PROGRESS"
