"""The shared floor: web infrastructure every app may use and no app owns.

The API error object and pagination (`api_errors`), the throttles (`throttles`), token
authentication (`authentication`), bounded JSON parsing (`json_limits`), the request-edge
middleware (`request_edges`), the Redis cache that degrades instead of failing
(`tolerant_cache`), and checked management-command arguments (`command_input`). It imports
no app (an import-linter contract in `.importlinter`). The health endpoints, which look at the
broker and the simulation reconciler, are wiring: `cardsite/health.py`.
"""
