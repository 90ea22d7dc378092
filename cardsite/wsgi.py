"""WSGI entry point (gunicorn `cardsite.wsgi:application`, see docs/deploy.md).

With DEBUG off every page links its static files through collectstatic's manifest, so a server
started before `collectstatic` would answer every HTML page with a 500. Refuse to start instead,
with the command that fixes it (`make serve` runs it).
"""

import os

from django.core.exceptions import ImproperlyConfigured
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardsite.settings")

application = get_wsgi_application()


def _require_collected_static() -> None:
    from django.conf import settings
    from django.contrib.staticfiles.storage import staticfiles_storage

    manifest = getattr(staticfiles_storage, "manifest_name", None)
    if settings.DEBUG or manifest is None:
        return
    if not (settings.STATIC_ROOT / manifest).exists():
        raise ImproperlyConfigured(
            f"No {manifest} in STATIC_ROOT ({settings.STATIC_ROOT}): run "
            "`python manage.py collectstatic --no-input` before starting the server "
            "(`make serve` does)."
        )


_require_collected_static()
