"""The settings of a checkout's tools: the product's settings plus the benchmarks' app.

manage.py starts with these, so `python manage.py loadtest` and the other benchmark commands are found;
the server (kaiza_site.asgi) and the wheel keep the product's own settings, which know nothing of
bench/ (docs/decisions/bench-outside-the-product.md).
"""

from __future__ import annotations

from kaiza_site.settings import *  # noqa: F403
from kaiza_site.settings import INSTALLED_APPS as PRODUCT_APPS

INSTALLED_APPS = [*PRODUCT_APPS, "bench"]
