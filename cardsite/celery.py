"""The Celery app, configured from the environment (see cardsite/settings.py, CELERY_*).

With REDIS_URL set, Redis is the broker; without it, kombu's filesystem transport in var/broker
lets `make run` run batches in a real worker process with no server at all.
"""

import os

from celery import Celery
from celery.signals import worker_process_init

from play.collector import tune_collector_for_matches

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardsite.settings")

app = Celery("cardsite")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_process_init.connect
def _tune_collector(**kwargs) -> None:
    """Set the collector for playing matches in each pool child, once, as it starts."""
    tune_collector_for_matches()
