"""The JSON API under ``/api/`` (documented in ``web/openapi.json``)."""
