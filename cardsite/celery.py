"""The Celery app, configured from the environment (see cardsite/settings.py, CELERY_*).

With REDIS_URL set, Redis is the broker; without it, kombu's filesystem transport in var/broker
lets `make run` run batches in a real worker process with no server at all.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardsite.settings")

app = Celery("cardsite")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
