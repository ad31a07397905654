"""allauth's count of failed logins keyed by the name tried *and the address trying it*.

allauth (`DefaultAccountAdapter._get_login_attempts_cache_key`, a private method: no public hook keys
`login_failed`) keys it by the name alone, so five wrong passwords from anywhere locked the owner out of
a public player name for five minutes; with the address in the key they lock out only the address that
sent them, and the owner's right password from another address is accepted. The per-address limit
stays as it was. allauth reads this key when it counts a failure (`pre_authenticate`) and when a
password reset clears the count (`_delete_login_attempts_cached_email`); the contract test
(tests/realtime/test_library_contracts.py) fails if a release renames or stops calling it.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

#: The private method overridden, and allauth's methods that call it.
PRIVATE_METHOD = "_get_login_attempts_cache_key"
CALLERS = ("pre_authenticate", "_delete_login_attempts_cached_email")


class LoginKeyByAddress:
    """Mixed into the account adapter, before allauth's `DefaultAccountAdapter`."""

    def _get_login_attempts_cache_key(self, request: HttpRequest, **credentials: Any) -> str:
        key: str = super()._get_login_attempts_cache_key(request, **credentials)  # type: ignore[misc]
        return f"{key}@{self.get_client_ip(request)}"  # type: ignore[attr-defined]
