"""Per-route rate-limit buckets answered like Discord: headers, 429 body, retry_after."""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Limit:
    count: int
    window: float  # seconds


@dataclass(frozen=True)
class RateLimitConfig:
    """Limits per bucket kind; every kind is keyed by its major parameter (channel, token)."""

    message_create: Limit = Limit(5, 5.0)  # POST /channels/{id}/messages, per channel
    message_edit: Limit = Limit(5, 5.0)  # PATCH/DELETE /channels/{id}/messages/{id}, per channel
    webhook: Limit = Limit(5, 2.0)  # interaction followups and edits, per interaction token
    default: Limit = Limit(50, 1.0)  # everything else, per route


@dataclass
class _Window:
    limit: Limit
    started: float
    used: int = 0

    def reset_after(self, now: float) -> float:
        return max(0.0, self.started + self.limit.window - now)


@dataclass(frozen=True)
class Verdict:
    allowed: bool
    headers: dict[str, str]
    retry_after: float
    injected: bool = False


@dataclass
class _Injection:
    method: str
    path_prefix: str
    times: int
    retry_after: float


@dataclass
class RateLimiter:
    config: RateLimitConfig = field(default_factory=RateLimitConfig)
    _windows: dict[str, _Window] = field(default_factory=dict)
    _injections: list[_Injection] = field(default_factory=list)

    def inject(
        self, method: str, path_prefix: str, *, times: int = 1, retry_after: float = 0.05
    ) -> None:
        """Answer the next `times` requests matching method and path prefix with a 429."""
        self._injections.append(_Injection(method.upper(), path_prefix, times, retry_after))

    def check(self, method: str, path: str, kind: str, major: str) -> Verdict:
        limit: Limit = getattr(self.config, kind)
        key = f"{kind}:{major}"
        now = time.monotonic()
        window = self._windows.get(key)
        if window is None or window.reset_after(now) == 0.0:
            window = self._windows[key] = _Window(limit=limit, started=now)
        injected = self._take_injection(method, path)
        if injected is not None:
            return Verdict(False, self._headers(key, window, now, injected), injected, True)
        if window.used >= limit.count:
            retry = window.reset_after(now)
            return Verdict(False, self._headers(key, window, now, retry), retry)
        window.used += 1
        return Verdict(True, self._headers(key, window, now, None), 0.0)

    def _take_injection(self, method: str, path: str) -> float | None:
        for injection in self._injections:
            if injection.method == method and path.startswith(injection.path_prefix):
                injection.times -= 1
                if injection.times <= 0:
                    self._injections.remove(injection)
                return injection.retry_after
        return None

    @staticmethod
    def _headers(key: str, window: _Window, now: float, retry: float | None) -> dict[str, str]:
        reset_after = window.reset_after(now) if retry is None else retry
        bucket = hashlib.sha1(key.split(":")[0].encode()).hexdigest()[:16]
        headers = {
            "X-RateLimit-Limit": str(window.limit.count),
            "X-RateLimit-Remaining": str(max(0, window.limit.count - window.used)),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": bucket,
        }
        if retry is not None:
            headers["X-RateLimit-Scope"] = "user"
            headers["Retry-After"] = str(max(1, round(retry)))
        return headers
